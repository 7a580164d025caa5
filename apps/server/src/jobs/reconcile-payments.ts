import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { AppDeps } from '../deps';
import { checkOrderPayment } from '../modules/purchases/settlement';
import { reconcileAutoRenewals } from '../modules/auto-renewal/reconcile';
import { orders } from '../modules/purchases/schema';
import { HOUR_MS } from '../lib/clock';

/** How far back reconciliation looks: a payment settles well within this. */
export const RECONCILE_WINDOW_MS = 48 * HOUR_MS;
/** An order claimed by one instance is left alone by the others for this long. */
const CLAIM_LEASE_MS = 2 * 60 * 1000;

/** An order that could not be reconciled, and why. */
export interface ReconcileFailure {
  orderId: string;
  reason: string;
}

export interface ReconcileResult {
  checked: number;
  settled: number;
  failures: ReconcileFailure[];
  /** Orders left alone because another run holds their lease (checked in the last 2 minutes). */
  skipped: number;
}

type Warning = { msg?: string; err?: unknown } & Record<string, unknown>;

/**
 * Keeps the warnings the payment service logs about one order (the gateway's own answer, a link
 * that names another order), so that each failure is reported with its cause; `take` hands them
 * on to the job's own log unchanged.
 */
function warningRecorder(log: FastifyBaseLogger | undefined) {
  const lines: string[] = [];
  const recorder: FastifyBaseLogger = pino(
    { level: 'warn', base: null, timestamp: false },
    { write: (line) => lines.push(line) },
  );
  const take = () =>
    lines.splice(0).map((line) => {
      const { level: _level, msg, ...fields } = JSON.parse(line) as Warning;
      log?.warn(fields, msg);
      return fields.err === undefined ? String(msg) : `${msg}: ${String(fields.err)}`;
    });
  return { log: recorder, take };
}

/**
 * Asks the gateway about orders whose state may differ from it (Pending, or Failed and still
 * payable) and settles them, so that a lost webhook loses nothing. Each order is claimed with
 * FOR UPDATE SKIP LOCKED and a lease, so instances running at once share the work. Every order
 * that could not be settled is in `failures`, with its cause, and logged.
 */
export async function reconcilePayments(
  deps: AppDeps,
  log?: FastifyBaseLogger,
  { limit = 100 }: { limit?: number } = {},
): Promise<ReconcileResult> {
  const now = deps.clock.now();
  const since = new Date(now.getTime() - RECONCILE_WINDOW_MS).toISOString();
  const leaseCutoff = new Date(now.getTime() - CLAIM_LEASE_MS).toISOString();
  const unsettled = sql`status IN ('Pending', 'Failed')
    AND payment_link_id IS NOT NULL
    AND created_at >= ${since}::timestamptz`;
  const claimed = await deps.db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      UPDATE ${orders} SET checked_at = ${now.toISOString()}::timestamptz
      WHERE id IN (
        SELECT id FROM ${orders}
        WHERE ${unsettled}
          AND (checked_at IS NULL OR checked_at < ${leaseCutoff}::timestamptz)
        ORDER BY created_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id`);
    return (result as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
  });
  const leased = await deps.db.execute(sql`
    SELECT count(*)::int AS count FROM ${orders}
    WHERE ${unsettled} AND checked_at >= ${leaseCutoff}::timestamptz
      AND NOT (id = ANY(${`{${claimed.join(',')}}`}::uuid[]))`);
  const skipped = Number((leased as unknown as { rows: { count: number }[] }).rows[0]?.count ?? 0);
  let settled = 0;
  const failures: ReconcileFailure[] = [];
  const warnings = warningRecorder(log);
  for (const id of claimed) {
    let reasons: string[];
    try {
      const [order] = await deps.db
        .select()
        .from(orders)
        .where(sql`${orders.id} = ${id}`);
      if (!order) continue;
      const { changed } = await checkOrderPayment(deps, order, warnings.log);
      if (changed) settled += 1;
      reasons = warnings.take();
    } catch (error) {
      const logged = warnings.take();
      reasons = logged.length > 0 ? logged : [(error as Error).message];
      log?.warn(
        { orderId: id, err: (error as Error).message },
        'reconciliation of an order failed',
      );
    }
    if (reasons.length > 0) {
      failures.push({ orderId: id, reason: reasons.join('; ') });
      // the lease is given back, so that the next run (or the operator's, at once) tries again
      await deps.db
        .update(orders)
        .set({ checkedAt: null })
        .where(sql`${orders.id} = ${id}`);
    }
  }
  if (settled > 0) log?.info({ checked: claimed.length, settled }, 'payments reconciled');
  deps.metrics.reconciled('settled', settled);
  deps.metrics.reconciled('failed', failures.length);
  deps.metrics.reconciled('unchanged', claimed.length - settled - failures.length);
  return { checked: claimed.length, settled, failures, skipped };
}

/**
 * One run of the payment-reconcile job: orders, then auto-renewals (decision 084). What the
 * gateway could not tell about waits for the next run.
 */
export async function runPaymentReconciliation(deps: AppDeps, log: FastifyBaseLogger) {
  await reconcilePayments(deps, log);
  const renewals = await reconcileAutoRenewals(deps, log);
  if (renewals.recorded > 0) log.info(renewals, 'auto-renewal charges found by reconciliation');
}
