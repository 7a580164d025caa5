// A charge of an auto-renewal: the order it pays for, settled as a purchase is, exactly once.
import { eq } from 'drizzle-orm';
import { orderAmount } from '@portal/contract';
import type { Transaction } from '../../db/client';
import type { AppDeps } from '../../deps';
import { plans } from '../plans/schema';
import { insertOrder } from '../purchases/orders';
import { paymentEvents } from '../purchases/schema';
import { settleInTransaction, type Settlement } from '../purchases/settlement';
import { renewalCharges, type AutoRenewalRow } from './schema';

export interface Charge {
  /** The gateway's payment id (pay_…): one order per payment, however often it is told. */
  paymentId: string;
  amountPaise: number;
  /** The cycle the gateway billed, which the order's period becomes. */
  billedCycle?: { start: Date; end: Date } | undefined;
}

type Deps = Pick<AppDeps, 'clock' | 'config' | 'queue' | 'consents' | 'eInvoicing'>;

/**
 * Records a successful charge inside `tx`, whose caller holds the auto-renewal's row lock: a
 * Completed order for the renewal's plan, which puts the next period on the account, issues its
 * invoice (and e-invoice) and queues the receipt mail. A payment recorded already changes
 * nothing. Answers the settlement, or null for a payment already recorded.
 */
export async function recordCharge(
  tx: Transaction,
  deps: Deps,
  renewal: AutoRenewalRow,
  charge: Charge,
  eventId?: string,
): Promise<{ orderId: string; settlement: Settlement } | null> {
  const [known] = await tx
    .select({ orderId: renewalCharges.orderId })
    .from(renewalCharges)
    .where(eq(renewalCharges.paymentId, charge.paymentId));
  if (known) return null;
  const [plan] = await tx.select().from(plans).where(eq(plans.id, renewal.planId));
  // a plan is never deleted (orders reference it), retired or not
  const order = await insertOrder(
    tx,
    deps,
    renewal.customerId,
    plan!,
    orderAmount(plan!.amountPaise),
  );
  await tx.insert(renewalCharges).values({
    paymentId: charge.paymentId,
    autoRenewalId: renewal.id,
    orderId: order.id,
    chargedAt: deps.clock.now(),
  });
  if (eventId) {
    await tx
      .update(paymentEvents)
      .set({ orderId: order.id })
      .where(eq(paymentEvents.eventId, eventId));
  }
  const settlement = await settleInTransaction(tx, deps, order.id, {
    kind: 'paid',
    paymentId: charge.paymentId,
    amountPaise: charge.amountPaise,
    billedCycle: charge.billedCycle,
  });
  return { orderId: order.id, settlement };
}
