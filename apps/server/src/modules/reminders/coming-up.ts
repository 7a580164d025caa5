// The dashboard's "Coming up" (docs/decisions/040-the-plan-over-time.md).
import { COMING_UP_DAYS, type ComingUpResponse } from '@portal/contract';
import type { AppDeps } from '../../deps';
import {
  comingUpPlanAt,
  daysUntil,
  periodsAheadColumn,
  periodsOf,
  type PeriodJson,
} from '../plans/current-plan';
import {
  runSessionRead,
  sessionReadText,
  type SessionColumns,
  type UnrevokedSession,
  type SessionAuth,
} from '../../db/session-read';
import type { Statement } from '../../db/statements';
import { DAY_MS } from '../../lib/clock';

/** Expiring consents are counted up to here: the card says "100 or more" past it. */
export const EXPIRING_COUNT_CAP = 100;
/** How many of the soonest the card lists. */
export const EXPIRING_SHOWN = 3;

/**
 * The card's statement: the request's session ($1, $2), the customer's periods not yet over at
 * $3, and their Approved consents expiring in ($3, $4]: a count that stops at $5 and the $6
 * soonest. Both consent reads use the partial index consents_customer_due_idx
 * (customer_id, expires_at, status) WHERE status IN ('Pending', 'Approved') as a range on
 * (customer_id, expires_at) in expiry order, so the cost follows the rows in the window (at most
 * $5), not the customer's consents nor other customers'. `(status = 'Approved') IS TRUE` is not
 * indexable on purpose: as a plain `status = 'Approved'` the planner may take
 * consents_status_expires_idx and read every customer's consents in the window.
 * EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL, 1,050,001 consents of the customer (50,001 in the
 * window) and 60,000 of others' in it: 0.17 ms, 16 buffers.
 *   Limit -> Index Only Scan using consents_customer_due_idx (100 rows, none removed)
 *   Limit -> Incremental Sort -> Nested Loop
 *     -> Index Scan using consents_customer_due_idx (4 rows) -> Memoize -> partners_pkey
 * coming-up-plan.pg.test.ts checks this plan on 28,000 consents of four customers.
 */
export const COMING_UP: Statement = {
  name: 'coming_up_screen',
  text: sessionReadText(`${periodsAheadColumn('$2::uuid', '$3::timestamptz')} AS "periods",
    (SELECT count(*)::int FROM (
      SELECT 1 FROM consents c
      WHERE c.customer_id = $2::uuid AND c.status IN ('Pending', 'Approved')
        AND (c.status = 'Approved') IS TRUE
        AND c.expires_at > $3::timestamptz AND c.expires_at <= $4::timestamptz
      ORDER BY c.expires_at
      LIMIT $5::int) AS window_rows) AS "count",
    (SELECT coalesce(json_agg(s ORDER BY s."expiresAt", s."_id"), '[]') FROM (
      SELECT c.id AS "_id", c.consent_id AS "consentId", p.name AS "partnerName",
        c.expires_at AS "expiresAt"
      FROM consents c JOIN partners p ON p.id = c.partner_ref
      WHERE c.customer_id = $2::uuid AND c.status IN ('Pending', 'Approved')
        AND (c.status = 'Approved') IS TRUE
        AND c.expires_at > $3::timestamptz AND c.expires_at <= $4::timestamptz
      ORDER BY c.expires_at, c.id
      LIMIT $6::int) AS s) AS "soonest"`),
};

interface ComingUpRow extends SessionColumns {
  periods: PeriodJson[];
  count: number;
  soonest: { _id: string; consentId: string; partnerName: string; expiresAt: string }[];
}

/**
 * The card's data: the plan's end, and the consents expiring within COMING_UP_DAYS; and the
 * session read beside them for the route to confirm.
 */
export async function comingUpOf(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  auth: SessionAuth,
): Promise<ComingUpResponse['data'] & { session: UnrevokedSession | undefined }> {
  const now = deps.clock.now();
  const until = new Date(now.getTime() + COMING_UP_DAYS * DAY_MS);
  const { row, session } = await runSessionRead<ComingUpRow>(deps.db, auth, COMING_UP, [
    now,
    until,
    EXPIRING_COUNT_CAP,
    EXPIRING_SHOWN,
  ]);
  const count = row?.count ?? 0;
  return {
    plan: comingUpPlanAt(periodsOf(row?.periods ?? []), now),
    consents: {
      windowDays: COMING_UP_DAYS,
      count,
      more: count >= EXPIRING_COUNT_CAP,
      soonest: (row?.soonest ?? []).map((consent) => {
        const expiresAt = new Date(consent.expiresAt);
        return {
          ...consent,
          expiresAt: expiresAt.toISOString(),
          daysLeft: daysUntil(expiresAt, now),
        };
      }),
    },
    session,
  };
}
