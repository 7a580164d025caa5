// Settling an order on what the gateway says happened to its payment: once, forward only, and
// only for the order's total to the paisa (decisions 005, 023).
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { customerDate, formatPaise } from '@portal/contract';
import type { Transaction } from '../../db/client';
import type { AppDeps } from '../../deps';
import type { PaymentLink } from '../../adapters/payment-gateway';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activity/record';
import { activatePlan, endPlanOfOrder } from '../plans/activation';
import { plans } from '../plans/schema';
import { orders, type OrderRow } from './schema';
import { issueCreditNote, issueInvoice } from '../invoices/issue';
import { customers } from '../users/schema';

/** What the gateway says happened to an order's payment. */
export type Observation =
  | {
      kind: 'paid';
      paymentId: string | null;
      /** What the gateway says was paid, in paise (`amount_paid`), if it said. */
      amountPaise: number | undefined;
      /** The cycle a subscription's charge paid for, which becomes the plan's period. */
      billedCycle?: { start: Date; end: Date } | undefined;
    }
  | { kind: 'failed' }
  | {
      kind: 'refunded';
      refundId: string;
      /** Everything refunded of the payment so far, in paise; unsaid, all of it. */
      refundedPaise?: number | undefined;
    };

/** The outcome of applying an observation to an order. */
export interface Settlement {
  changed: boolean;
  status: string;
  /** Set when a payment was left unapplied because it is not the order's total. */
  wrongAmount?: { paidPaise: number | null; totalPaise: number };
}

const MONOTONIC_RANK: Record<string, number> = { Pending: 0, Failed: 1, Completed: 2, Refunded: 3 };

/**
 * Applies what the gateway said, inside `tx`, with the order's row locked: the same observation
 * applied twice (or concurrently) changes the order once, and a paid order never moves back.
 */
export async function settleInTransaction(
  tx: Transaction,
  deps: Pick<AppDeps, 'clock' | 'config' | 'queue' | 'consents' | 'eInvoicing'>,
  orderId: string,
  seen: Observation,
): Promise<Settlement> {
  const { clock } = deps;
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!order) throw new AppError('NOT_FOUND', 'Order not found');
  const target =
    seen.kind === 'paid' ? 'Completed' : seen.kind === 'failed' ? 'Failed' : 'Refunded';
  // a refund only follows a payment; everything else only moves forward
  const allowed =
    seen.kind === 'refunded'
      ? order.status === 'Completed'
      : MONOTONIC_RANK[target]! > MONOTONIC_RANK[order.status]!;
  if (!allowed) return { changed: false, status: order.status };
  // money taken is never Failed, but only the order's total to the paisa completes it
  if (seen.kind === 'paid' && seen.amountPaise !== order.totalPaise) {
    return {
      changed: false,
      status: order.status,
      wrongAmount: { paidPaise: seen.amountPaise ?? null, totalPaise: order.totalPaise },
    };
  }

  const now = clock.now();
  const [plan] = await tx.select().from(plans).where(eq(plans.id, order.planId));
  const planName = plan!.planName;
  const details = { orderId: order.id, planId: order.planId };

  if (seen.kind === 'paid') {
    await tx
      .update(orders)
      .set({ status: 'Completed', gatewayPaymentId: seen.paymentId, paidAt: now, updatedAt: now })
      .where(eq(orders.id, order.id));
    const period = await activatePlan(tx, {
      customerId: order.customerId,
      planId: order.planId,
      orderId: order.id,
      durationDays: plan!.durationDays,
      now,
      billedCycle: seen.billedCycle,
    });
    await recordActivity(tx, clock, {
      customerId: order.customerId,
      type: 'payment_completed',
      title: 'Payment completed',
      description: `Payment of ${formatPaise(order.totalPaise)} for the ${planName} plan`,
      status: 'success',
      details,
    });
    await recordActivity(tx, clock, {
      customerId: order.customerId,
      type: 'plan_activated',
      title: 'Plan activated',
      description: `${planName} plan active until ${customerDate(period.endsAt)}`,
      status: 'success',
      details,
    });
    // last: the financial year's counter is held from its number to the commit
    const [customer] = await tx.select().from(customers).where(eq(customers.id, order.customerId));
    await issueInvoice(tx, deps, {
      order,
      paymentId: seen.paymentId,
      issuedAt: now,
      plan: {
        name: planName,
        type: plan!.planType,
        durationDays: plan!.durationDays,
        companies: plan!.noOfCompany,
      },
      period: { start: period.startsAt, end: period.endsAt },
      // the receipt carries the invoice's PDF: it goes once that is drawn and stored
      mail: (invoiceNumber) => ({
        template: 'receipt',
        to: customer!.email,
        data: {
          orderId: order.id,
          invoiceNumber,
          planName,
          totalPaise: order.totalPaise,
          paidAt: now.toISOString(),
          companyName: customer!.companyName,
        },
      }),
    });
  } else if (seen.kind === 'failed') {
    await tx
      .update(orders)
      .set({ status: 'Failed', updatedAt: now })
      .where(eq(orders.id, order.id));
    await recordActivity(tx, clock, {
      customerId: order.customerId,
      type: 'payment_failed',
      title: 'Payment failed',
      description: `Payment for the ${planName} plan did not go through`,
      status: 'failed',
      details,
    });
  } else {
    const refundedPaise = seen.refundedPaise ?? order.totalPaise;
    await issueCreditNote(tx, deps, {
      order,
      planName,
      refundId: seen.refundId,
      refundedPaise,
      issuedAt: now,
    });
    // short of the total, the order stays paid with its plan (decision 023)
    if (refundedPaise < order.totalPaise) return { changed: false, status: order.status };
    await tx
      .update(orders)
      .set({ status: 'Refunded', updatedAt: now })
      .where(eq(orders.id, order.id));
    await endPlanOfOrder(tx, order.id, now);
    await recordActivity(tx, clock, {
      customerId: order.customerId,
      type: 'payment_refunded',
      title: 'Payment refunded',
      description: `${formatPaise(order.totalPaise)} for the ${planName} plan was refunded`,
      status: 'failed',
      details: { ...details, refundId: seen.refundId },
    });
  }
  return { changed: true, status: target };
}

/**
 * Once a settlement has committed: counts it if it changed its order, and wakes this instance's
 * drawing of the document it may have issued, rather than leaving it to the next look.
 */
export function afterSettlement(
  deps: Pick<AppDeps, 'metrics' | 'queue'>,
  settlement: Settlement,
  via: 'webhook' | 'check',
) {
  deps.queue.wake('document-draw');
  // a change always lands on Completed, Failed or Refunded
  if (settlement.changed) {
    deps.metrics.payment(
      settlement.status.toLowerCase() as 'completed' | 'failed' | 'refunded',
      via,
    );
  }
}

export async function settleOrder(deps: AppDeps, orderId: string, seen: Observation) {
  const settlement = await deps.db.transaction((tx) =>
    settleInTransaction(tx, deps, orderId, seen),
  );
  afterSettlement(deps, settlement, 'check');
  return settlement;
}

/** A payment of another amount than the order's needs a person: it is logged, not applied. */
export function warnOfWrongAmount(
  log: FastifyBaseLogger | undefined,
  orderId: string,
  settlement: Settlement,
) {
  if (!settlement.wrongAmount) return;
  log?.warn({ orderId, ...settlement.wrongAmount }, 'payment amount does not match the order');
}

/** What a payment link's state means for its order; null while it can still be paid. */
export function observationOfLink(link: PaymentLink): Observation | null {
  if (link.status === 'paid') {
    const captured = link.payments?.find((p) => p.status === 'captured');
    return { kind: 'paid', paymentId: captured?.payment_id ?? null, amountPaise: link.amount_paid };
  }
  if (link.status === 'cancelled' || link.status === 'expired') {
    return { kind: 'failed' };
  }
  return null;
}

/** Asks the gateway about one order and settles it; the source of truth is the gateway. */
export async function checkOrderPayment(
  deps: AppDeps,
  order: OrderRow,
  log?: FastifyBaseLogger,
): Promise<Settlement> {
  if (!order.paymentLinkId) return { changed: false, status: order.status };
  let link: PaymentLink;
  try {
    link = await deps.payments.gateway.fetchPaymentLink(order.paymentLinkId);
  } catch (error) {
    log?.warn({ orderId: order.id, err: (error as Error).message }, 'payment status check failed');
    throw new AppError('BAD_GATEWAY', 'Could not reach the payment gateway. Please try again.');
  }
  if (link.reference_id !== order.id) {
    log?.warn({ orderId: order.id, linkId: link.id }, 'payment link names another order');
    return { changed: false, status: order.status };
  }
  const seen = observationOfLink(link);
  if (!seen) return { changed: false, status: order.status };
  const settlement = await settleOrder(deps, order.id, seen);
  warnOfWrongAmount(log, order.id, settlement);
  return settlement;
}
