// What the gateway tells the portal about a payment: the browser's return from checkout, and
// its signed webhooks.
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { PaymentCallbackQuery } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/uuid';
import { orders, type OrderRow } from './schema';
import { paymentEvents } from './schema';
import {
  checkOrderPayment,
  afterSettlement,
  settleInTransaction,
  warnOfWrongAmount,
  type Observation,
} from './settlement';

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

/**
 * Takes a signed event about a subscription, given at composition by the flow that owns them
 * (modules/auto-renewal); null when the event is about none.
 */
export type SubscriptionEventHandler = (
  deps: AppDeps,
  sent: { eventId: string; body: unknown },
  log: FastifyBaseLogger,
  afterAnswer: AfterAnswer,
) => Promise<WebhookOutcome | null>;

/** Takes work to begin once the webhook's answer is sent. */
export type AfterAnswer = (work: () => Promise<void>) => void;

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
  subscriptionEvents?: { handle: SubscriptionEventHandler; afterAnswer: AfterAnswer },
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
  const aboutSubscription = await subscriptionEvents?.handle(
    deps,
    { eventId, body: sent.parsed },
    log,
    subscriptionEvents.afterAnswer,
  );
  if (aboutSubscription) return aboutSubscription;
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
  if (settlement) afterSettlement(deps, settlement, 'webhook');
  return outcome;
}
