// Catching what the gateway's webhooks did not bring: a charge whose every delivery was lost, or
// a subscription that moved on in silence (cancelled at the cycle's end, expired unauthorised).
import { and, asc, eq, isNull, lte, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps';
import type { GatewayInvoice } from '../../adapters/payment-gateway-subscriptions';
import { afterSettlement, warnOfWrongAmount } from '../purchases/settlement';
import { recordCharge } from './charges';
import { AUTHORISATION_WINDOW_MS, syncFromGateway } from './gateway-state';
import { autoRenewals, renewalCharges } from './schema';

/** Renewals looked at per run, the longest unread first. */
const RECONCILE_BATCH = 200;

const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** Records one paid invoice's charge under the renewal's lock, unless it is recorded already. */
async function recordPaidInvoice(
  deps: AppDeps,
  renewalId: string,
  invoice: GatewayInvoice,
  log: FastifyBaseLogger,
): Promise<boolean> {
  const charged = await deps.db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(autoRenewals)
      .where(eq(autoRenewals.id, renewalId))
      .for('update');
    if (!locked) return null;
    return recordCharge(tx, deps, locked, {
      paymentId: invoice.payment_id!,
      amountPaise: invoice.amount_paid,
      billedCycle:
        invoice.billing_start !== null && invoice.billing_end !== null
          ? { start: fromUnix(invoice.billing_start), end: fromUnix(invoice.billing_end) }
          : undefined,
    });
  });
  if (!charged) return false;
  warnOfWrongAmount(log, charged.orderId, charged.settlement);
  afterSettlement(deps, charged.settlement, 'check');
  return true;
}

/**
 * Reads back from the gateway each live renewal whose charge is due or past, or that has none
 * scheduled (waiting, retrying, halted), or whose mandate was not authorised in its time (the
 * gateway expires it without an event), and records any paid invoice of its subscription that
 * no order carries yet. A webhook racing it takes the same lock and finds the charge recorded,
 * so a charge makes one order whichever comes first. Answers how many charges it recorded.
 */
export async function reconcileAutoRenewals(
  deps: AppDeps,
  log: FastifyBaseLogger,
): Promise<{ read: number; recorded: number; failed: number }> {
  const now = deps.clock.now();
  const due = await deps.db
    .select({ id: autoRenewals.id, subscriptionId: autoRenewals.subscriptionId })
    .from(autoRenewals)
    .where(
      and(
        isNull(autoRenewals.endedAt),
        or(
          isNull(autoRenewals.chargeAt),
          lte(autoRenewals.chargeAt, now),
          and(
            eq(autoRenewals.gatewayStatus, 'created'),
            lte(autoRenewals.createdAt, new Date(now.getTime() - AUTHORISATION_WINDOW_MS)),
          ),
        ),
      ),
    )
    .orderBy(asc(autoRenewals.syncedAt))
    .limit(RECONCILE_BATCH);
  let recorded = 0;
  let failed = 0;
  for (const renewal of due) {
    try {
      const invoices = await deps.payments.gateway.listSubscriptionInvoices(renewal.subscriptionId);
      const known = new Set(
        (
          await deps.db
            .select({ paymentId: renewalCharges.paymentId })
            .from(renewalCharges)
            .where(eq(renewalCharges.autoRenewalId, renewal.id))
        ).map((row) => row.paymentId),
      );
      for (const invoice of invoices) {
        if (invoice.status !== 'paid' || !invoice.payment_id || known.has(invoice.payment_id)) {
          continue;
        }
        if (await recordPaidInvoice(deps, renewal.id, invoice, log)) recorded += 1;
      }
      await syncFromGateway(deps, renewal.subscriptionId);
    } catch (error) {
      failed += 1;
      log.warn(
        { subscriptionId: renewal.subscriptionId, err: (error as Error).message },
        'auto-renewal not reconciled',
      );
    }
  }
  return { read: due.length, recorded, failed };
}
