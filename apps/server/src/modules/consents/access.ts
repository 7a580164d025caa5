// A partner's reads of the data a consent covers: each one allowed by the consent's terms and
// recorded as its last access, in one narrow row per consent (consent_accesses) so that the write
// touches neither the wide consents row, its indexes nor its counters' trigger.
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { PartnerAccountsResponse } from '@portal/contract';
import type { AppDeps } from '../../deps';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { Partner } from '../partners/schema';
import type { ConsentWithAccess } from './rows';
import { consentAccesses, consents } from './schema';

/** A consent's columns with its last access, for `db.select(…).from(consents)` + withAccess. */
export const consentWithAccess = {
  ...getTableColumns(consents),
  lastAccessedAt: consentAccesses.lastAccessedAt,
};

/** Joins each consent to its access row, when the partner has read at all. */
export const accessJoin = eq(consentAccesses.consentRef, consents.id);

/** One consent of this partner's, by the bank's id, with its last access. */
export async function findPartnerConsent(
  db: Executor,
  partner: Pick<Partner, 'id'>,
  consentId: string,
): Promise<ConsentWithAccess | null> {
  const [row] = await db
    .select(consentWithAccess)
    .from(consents)
    .leftJoin(consentAccesses, accessJoin)
    .where(and(eq(consents.consentId, consentId), eq(consents.partnerRef, partner.id)));
  return row ?? null;
}

/**
 * Counts one read against the consent's reads a day and records it as the last access, in one
 * statement: two reads at once are serialised on the row, so neither the count nor the time can
 * go backwards or past the limit. A day is the 24 hours from the first read of the window.
 * Answers the reads made in the window, or null when the limit is reached.
 */
async function countRead(db: Executor, consentRef: string, now: Date, fetchesPerDay: number) {
  const windowOver = sql`a.window_started_at <= ${now}::timestamptz - interval '1 day'`;
  const result = await db.execute(sql`
    INSERT INTO consent_accesses AS a (consent_ref, last_accessed_at, window_started_at, fetches_in_window)
    VALUES (${consentRef}, ${now}, ${now}, 1)
    ON CONFLICT (consent_ref) DO UPDATE SET
      last_accessed_at = GREATEST(a.last_accessed_at, excluded.last_accessed_at),
      window_started_at = CASE WHEN ${windowOver} THEN excluded.window_started_at ELSE a.window_started_at END,
      fetches_in_window = CASE WHEN ${windowOver} THEN 1 ELSE a.fetches_in_window + 1 END
    WHERE ${windowOver} OR a.fetches_in_window < ${fetchesPerDay}
    RETURNING fetches_in_window AS "fetches"`);
  const rows = (result as unknown as { rows: { fetches: number }[] }).rows;
  return rows[0]?.fetches ?? null;
}

/**
 * The partner reads the accounts a consent covers: only an approved consent before its expiry,
 * within its reads a day. The accounts are the masked ones stored; full numbers never are.
 */
export async function readConsentAccounts(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  partner: Pick<Partner, 'id'>,
  consentId: string,
): Promise<PartnerAccountsResponse['data']> {
  const { db, clock } = deps;
  const now = clock.now();
  const row = await findPartnerConsent(db, partner, consentId);
  if (!row) throw new AppError('NOT_FOUND', 'Consent not found');
  const lapsed = row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();
  if (row.status !== 'Approved' || lapsed) {
    const status = row.status === 'Approved' ? 'Expired' : row.status;
    throw new AppError(
      'FORBIDDEN',
      `Consent ${row.consentId} is ${status}: only an approved consent before its expiry gives access to data.`,
    );
  }
  const fetches = await countRead(db, row.id, now, row.fetchesPerDay);
  if (fetches === null) {
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `Consent ${row.consentId} allows ${row.fetchesPerDay} reads a day, and they are used; try again later.`,
    );
  }
  return {
    consentId: row.consentId,
    accounts: row.accounts,
    transactionFromDateTime: row.transactionFrom?.toISOString() ?? null,
    transactionToDateTime: row.transactionTo?.toISOString() ?? null,
    fetchesLeftToday: row.fetchesPerDay - fetches,
    accessedAt: now.toISOString(),
  };
}
