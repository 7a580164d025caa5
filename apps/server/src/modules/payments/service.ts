import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  customerDate,
  formatPaise,
  orderRef,
  paymentPaths,
  rupeesToPaise,
  type CreatePaymentRequest,
  type PaymentCallbackQuery,
} from '@portal/contract';
import type { Transaction } from '../../db/client';
import type { AppDeps } from '../../deps';
import type { PaymentLink } from '../../adapters/payment-gateway';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activity/record';
import { activatePlan, endPlanOfOrder } from '../plans/activation';
import { plans } from '../plans/schema';
import { isUuid } from '../plans/service';
import { findOwnOrder } from '../orders/service';
import { orders, type OrderRow } from '../orders/schema';
import { enqueueMail } from '../mail/delivery';
import { issueCreditNote, issueInvoice } from '../invoices/issue';
import { customers } from '../users/schema';
import { paymentEvents } from './schema';

/** How long a payment link stays payable. */
const LINK_LIFETIME_SECONDS = 24 * 60 * 60;

/** What the gateway says happened to an order's payment. */
export type Observation =
  | {
      kind: 'paid';
      paymentId: string | null;
      /** What the gateway says was paid, in paise (`amount_paid`), if it said. */
      amountPaise: number | undefined;
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

/** A paid, refunded or failed order starts no payment. */
function refuseUnpayable(order: OrderRow) {
  if (order.status === 'Completed' || order.status === 'Refunded') {
    throw new AppError('CONFLICT', 'This order is already paid');
  }
  if (order.status !== 'Pending') {
    throw new AppError('CONFLICT', 'This order can no longer be paid. Please create a new order.');
  }
}

/** The order's link was made for these customer details (they are stored with the link). */
const linkMadeFor = (order: OrderRow, input: CreatePaymentRequest) =>
  order.customerName === input.customer_name &&
  order.customerEmail === input.customer_email &&
  order.customerPhone === input.customer_phone;

/**
 * Takes a superseded link off its order and cancels it at the gateway, so that only the link
 * made next can take the order's money. The order lets go of the link first: the gateway's
 * cancellation webhook then names a link that is no longer the order's, and cannot fail it.
 */
async function cancelSupersededLink(deps: AppDeps, order: OrderRow): Promise<void> {
  const { db, clock, payments } = deps;
  const linkId = order.paymentLinkId!;
  const [detached] = await db
    .update(orders)
    .set({ paymentLinkId: null, paymentUrl: null, updatedAt: clock.now() })
    .where(
      and(eq(orders.id, order.id), eq(orders.paymentLinkId, linkId), eq(orders.status, 'Pending')),
    )
    .returning({ id: orders.id });
  if (!detached) {
    throw new AppError('CONFLICT', 'This payment was changed meanwhile. Please try again.');
  }
  try {
    await payments.gateway.cancelPaymentLink(linkId);
  } catch (error) {
    // paid or closed meanwhile, or the gateway is away: the link stays the order's, and the
    // gateway's record of it decides what the order is now
    const [restored] = await db
      .update(orders)
      .set({ paymentLinkId: linkId, paymentUrl: order.paymentUrl, updatedAt: clock.now() })
      .where(and(eq(orders.id, order.id), isNull(orders.paymentLinkId)))
      .returning();
    if (restored) {
      await checkOrderPayment(deps, restored).catch(() => undefined);
      refuseUnpayable(await findOwnOrder(db, order.customerId, order.id));
    }
    throw new AppError('BAD_GATEWAY', 'Payment initiation failed', (error as Error).message);
  }
}

/**
 * Starts (or resumes) the payment of a Pending order and answers the checkout URL. Started again
 * with the same customer details it answers the same link; with other details it makes a link
 * for them and cancels the one it replaces, so an order never has two links that take money.
 */
export async function createPayment(
  deps: AppDeps,
  customerId: string,
  input: CreatePaymentRequest,
): Promise<string> {
  const { db, config, clock, payments } = deps;
  const order = await findOwnOrder(db, customerId, input.order_id);
  refuseUnpayable(order);
  if (rupeesToPaise(input.amount) !== order.totalPaise) {
    throw new AppError(
      'UNPROCESSABLE',
      `Amount does not match the order. The total is ${formatPaise(order.totalPaise)}.`,
    );
  }
  if (order.paymentUrl && linkMadeFor(order, input)) return order.paymentUrl;
  if (order.paymentLinkId) await cancelSupersededLink(deps, order);

  // the order's plan row always exists: orders reference plans, which are never deleted
  const [plan] = await db.select().from(plans).where(eq(plans.id, order.planId));
  let link: PaymentLink;
  try {
    link = await payments.gateway.createPaymentLink({
      referenceId: order.id,
      amountPaise: order.totalPaise,
      description: `${plan!.planName} plan, order ${orderRef(order.id)}`,
      customer: {
        name: input.customer_name,
        email: input.customer_email,
        contact: input.customer_phone,
      },
      callbackUrl: `${config.PUBLIC_URL}${paymentPaths.callback}`,
      expireBy: Math.floor(clock.now().getTime() / 1000) + LINK_LIFETIME_SECONDS,
      notes: { order_id: order.id },
    });
  } catch (error) {
    // a concurrent request may have created the link (the gateway refuses a second reference)
    const again = await findOwnOrder(db, customerId, order.id);
    if (again.paymentUrl) return again.paymentUrl;
    throw new AppError('BAD_GATEWAY', 'Payment initiation failed', (error as Error).message);
  }
  const [updated] = await db
    .update(orders)
    .set({
      paymentLinkId: link.id,
      paymentUrl: link.short_url,
      customerName: input.customer_name,
      customerEmail: input.customer_email,
      customerPhone: input.customer_phone,
      updatedAt: clock.now(),
    })
    .where(and(eq(orders.id, order.id), isNull(orders.paymentLinkId)))
    .returning();
  if (updated) return updated.paymentUrl!;
  // a concurrent request gave the order its link first: this one must not stay payable beside it
  await payments.gateway.cancelPaymentLink(link.id).catch(() => undefined);
  const again = await findOwnOrder(db, customerId, order.id);
  refuseUnpayable(again);
  if (again.paymentUrl) return again.paymentUrl;
  throw new AppError('CONFLICT', 'This payment was changed meanwhile. Please try again.');
}

const MONOTONIC_RANK: Record<string, number> = { Pending: 0, Failed: 1, Completed: 2, Refunded: 3 };

/**
 * Applies what the gateway said, inside `tx`, with the order's row locked: the same observation
 * applied twice (or concurrently) changes the order once, and a paid order never moves back.
 */
export async function settleInTransaction(
  tx: Transaction,
  deps: Pick<AppDeps, 'clock' | 'files' | 'config' | 'queue' | 'consents'>,
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
    });
    const [customer] = await tx.select().from(customers).where(eq(customers.id, order.customerId));
    const { invoiceNumber } = await issueInvoice(tx, deps, {
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
    // the worker attaches the stored invoice: the mail goes exactly when the payment commits
    await enqueueMail(tx, deps, {
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

/** A settlement that changed its order, counted once it has committed. */
function countSettlement(
  deps: Pick<AppDeps, 'metrics'>,
  settlement: Settlement,
  via: 'webhook' | 'check',
) {
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
  countSettlement(deps, settlement, 'check');
  return settlement;
}

/** A payment of another amount than the order's needs a person: it is logged, not applied. */
function warnOfWrongAmount(
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

/** The order a gateway reference names, whatever its link. */
async function orderNamedBy(deps: AppDeps, referenceId: string) {
  if (!isUuid(referenceId)) return null;
  const [order = null] = await deps.db.select().from(orders).where(eq(orders.id, referenceId));
  return order;
}

async function orderOfLink(deps: AppDeps, linkId: string, referenceId: string) {
  const order = await orderNamedBy(deps, referenceId);
  return order && order.paymentLinkId === linkId ? order : null;
}

/**
 * The browser's return from checkout: signature first, then the state is confirmed by asking
 * the gateway (the query alone is never trusted). Unknown or mis-signed callbacks change nothing.
 */
export async function handleCallback(
  deps: AppDeps,
  query: PaymentCallbackQuery,
  log: FastifyBaseLogger,
): Promise<void> {
  const params = {
    paymentLinkId: query.razorpay_payment_link_id ?? '',
    referenceId: query.razorpay_payment_link_reference_id ?? '',
    status: query.razorpay_payment_link_status ?? '',
    paymentId: query.razorpay_payment_id ?? '',
    signature: query.razorpay_signature ?? '',
  };
  if (!params.paymentLinkId || !params.referenceId || !params.signature) {
    log.warn('payment callback without its parameters refused');
    throw new AppError('BAD_REQUEST', 'Payment callback is incomplete');
  }
  if (!deps.payments.gateway.verifyCallback(params)) {
    log.warn(
      { paymentLinkId: params.paymentLinkId },
      'payment callback with a bad signature refused',
    );
    throw new AppError('FORBIDDEN', 'Payment callback signature is not valid');
  }
  const order = await orderOfLink(deps, params.paymentLinkId, params.referenceId);
  if (!order) {
    log.warn(
      { paymentLinkId: params.paymentLinkId },
      'payment callback for an unknown order refused',
    );
    throw new AppError('NOT_FOUND', 'Order not found');
  }
  try {
    await checkOrderPayment(deps, order, log);
  } catch (error) {
    // the reconciliation job settles it later; the customer still gets back to the portal
    if (!(error instanceof AppError)) throw error;
  }
}

interface WebhookBody {
  event?: string;
  payload?: {
    payment_link?: {
      entity?: { id?: string; reference_id?: string; status?: string; amount_paid?: number };
    };
    payment?: {
      entity?: {
        id?: string;
        status?: string;
        notes?: Record<string, string> | unknown[];
        /** Everything refunded of this payment so far, in paise. */
        amount_refunded?: number;
      };
    };
    refund?: { entity?: { id?: string; payment_id?: string; amount?: number } };
  };
}

export type WebhookOutcome = {
  result: 'applied' | 'duplicate' | 'unchanged' | 'ignored';
  orderId?: string;
};

/** Resolves a webhook's order and what it says; null when the event is not about orders. */
async function readWebhook(
  deps: AppDeps,
  body: WebhookBody,
): Promise<{ order: OrderRow | null; seen: Observation } | null> {
  // Stryker disable next-line StringLiteral: any text that names no event reads the same as none
  const event = body.event ?? '';
  const link = body.payload?.payment_link?.entity;
  const payment = body.payload?.payment?.entity;
  const refund = body.payload?.refund?.entity;

  if (
    event === 'payment_link.paid' ||
    event === 'payment_link.expired' ||
    event === 'payment_link.cancelled'
  ) {
    const named =
      link?.id && link.reference_id ? await orderNamedBy(deps, link.reference_id) : null;
    const order = named && named.paymentLinkId === link?.id ? named : null;
    // a link its order has let go of (the payment started again with other details) ended
    // unpaid: nothing to settle, and the gateway must not keep sending it as an unknown order
    if (named && !order && event !== 'payment_link.paid') return null;
    const seen: Observation =
      event === 'payment_link.paid'
        ? { kind: 'paid', paymentId: payment?.id ?? null, amountPaise: link?.amount_paid }
        : { kind: 'failed' };
    return { order, seen };
  }
  if (event === 'payment.failed') {
    const notes = payment?.notes && !Array.isArray(payment.notes) ? payment.notes : {};
    // Stryker disable next-line StringLiteral: any text that is no UUID finds no order, as none does
    const orderId = notes.order_id ?? link?.reference_id ?? '';
    let order: OrderRow | null = null;
    if (isUuid(orderId)) {
      [order = null] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
    }
    return { order, seen: { kind: 'failed' } };
  }
  if (event === 'refund.processed' || event === 'payment.refunded') {
    const paymentId = refund?.payment_id ?? payment?.id;
    let order: OrderRow | null = null;
    if (paymentId) {
      [order = null] = await deps.db
        .select()
        .from(orders)
        .where(eq(orders.gatewayPaymentId, paymentId));
    }
    // the payment's running total says what is refunded so far (several partial refunds can
    // add up to all of it), else the one refund's own amount
    const refundedPaise = payment?.amount_refunded ?? refund?.amount;
    // Stryker disable next-line StringLiteral: without a payment id no order is found, so this refund id is never recorded
    const refundId = refund?.id ?? paymentId ?? '';
    return { order, seen: { kind: 'refunded', refundId, refundedPaise } };
  }
  return null;
}

/**
 * A gateway webhook: signed with the webhook secret over the raw body, deduplicated by its event
 * id, written and applied in one transaction before the answer.
 */
export async function handleWebhook(
  deps: AppDeps,
  sent: { raw: Buffer; parsed: unknown },
  headers: { signature?: string; eventId?: string },
  log: FastifyBaseLogger,
): Promise<WebhookOutcome> {
  if (!deps.payments.gateway.verifyWebhook(sent.raw, headers.signature)) {
    log.warn('payment webhook with a bad or missing signature refused');
    throw new AppError('UNAUTHORIZED', 'Webhook signature is not valid');
  }
  const eventId = headers.eventId?.trim();
  // the header's schema caps it at 100 characters; a blank one is no id
  if (!eventId) {
    log.warn('payment webhook without an event id refused');
    throw new AppError('BAD_REQUEST', 'Webhook event id is missing');
  }
  const body = sent.parsed as WebhookBody;
  const read = await readWebhook(deps, body);
  if (read && !read.order) {
    log.warn({ eventId, event: body.event }, 'payment webhook for an unknown order refused');
    throw new AppError('NOT_FOUND', 'Order not found');
  }
  const { outcome, settlement } = await deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(paymentEvents)
      .values({
        eventId,
        event: body.event ?? 'unknown',
        orderId: read?.order?.id ?? null,
        payload: body,
        receivedAt: deps.clock.now(),
      })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId });
    if (inserted.length === 0) {
      return { outcome: { result: 'duplicate' as const, orderId: read?.order?.id } };
    }
    if (!read?.order) return { outcome: { result: 'ignored' as const } };
    const settled = await settleInTransaction(tx, deps, read.order.id, read.seen);
    warnOfWrongAmount(log, read.order.id, settled);
    return {
      outcome: {
        result: settled.changed ? ('applied' as const) : ('unchanged' as const),
        orderId: read.order.id,
      },
      settlement: settled,
    };
  });
  if (settlement) countSettlement(deps, settlement, 'webhook');
  return outcome;
}
