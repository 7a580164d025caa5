// Starting the payment of an order: one payment link at a time, for the customer details given.
import { and, eq, isNull } from 'drizzle-orm';
import {
  formatPaise,
  orderRef,
  paymentPaths,
  rupeesToPaise,
  type CreatePaymentRequest,
} from '@portal/contract';
import type { AppDeps } from '../../deps';
import type { PaymentLink } from '../../adapters/payment-gateway';
import { AppError } from '../../lib/errors';
import { plans } from '../plans/schema';
import { findOwnOrder } from './orders';
import { orders, type OrderRow } from './schema';
import { checkOrderPayment } from './settlement';

/** How long a payment link stays payable. */
const LINK_LIFETIME_SECONDS = 24 * 60 * 60;

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
