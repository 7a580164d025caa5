import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStatusPath } from '@portal/contract';
import { callbackSignature } from '../../adapters/payment-gateway';
import type { Database } from '../../db/client';
import { reconcilePayments } from '../../jobs/reconcile-payments';
import { sandboxPaymentLinks } from '../../sandbox/gateway/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { orders } from './schema';
import { buyer, dropWebhooks, paidSilently, settledEffects } from '../../test/payments';

// What the gateway can say about a link beyond one clean payment: several tries, an expiry, a
// link made for another order, and a return whose settling meets a database failure.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type SandboxPayment = (typeof sandboxPaymentLinks.$inferSelect)['payments'][number];
const tried = (paymentId: string, status: 'captured' | 'failed', amount: number) => ({
  payment_id: paymentId,
  status,
  amount,
  created_at: 1_780_000_000,
});

/** A Pending order with a link, whose state at the gateway is then set to `status`. */
async function orderWhoseLinkIs(status: string, payments: (amount: number) => SandboxPayment[]) {
  const b = await buyer(t);
  const orderId = await b.order();
  const { linkId } = await b.pay(orderId);
  const [link] = await t.deps.db
    .select()
    .from(sandboxPaymentLinks)
    .where(eq(sandboxPaymentLinks.id, linkId));
  await t.deps.db
    .update(sandboxPaymentLinks)
    .set({ status, payments: payments(link!.amount) })
    .where(eq(sandboxPaymentLinks.id, linkId));
  const checked = await t.app.inject({
    method: 'POST',
    url: checkStatusPath(orderId),
    headers: b.headers,
  });
  const [order] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
  return { checked, order: order! };
}

describe('POST /api/orders/:id/check-status', () => {
  it('records the captured payment of a link paid after a failed try', async () => {
    const { checked, order } = await orderWhoseLinkIs('paid', (amount) => [
      tried('pay_DECLINED', 'failed', amount),
      tried('pay_CAPTURED', 'captured', amount),
    ]);
    expect(checked.statusCode).toBe(200);
    expect(checked.json().message).toBe('Payment status: Completed');
    expect(order).toMatchObject({ status: 'Completed', gatewayPaymentId: 'pay_CAPTURED' });
  });

  it('completes a paid link that lists no captured payment, with no payment id', async () => {
    const { checked, order } = await orderWhoseLinkIs('paid', (amount) => [
      tried('pay_DECLINED', 'failed', amount),
    ]);
    expect(checked.statusCode).toBe(200);
    expect(order).toMatchObject({ status: 'Completed', gatewayPaymentId: null });
  });

  it('completes a paid link that lists no payment at all, with no payment id', async () => {
    // the gateway answers `payments: null` for a link without payments
    const { checked, order } = await orderWhoseLinkIs('paid', () => []);
    expect(checked.statusCode).toBe(200);
    expect(order).toMatchObject({ status: 'Completed', gatewayPaymentId: null });
  });

  it('fails the order of a link that expired unpaid', async () => {
    const { checked, order } = await orderWhoseLinkIs('expired', () => []);
    expect(checked.statusCode).toBe(200);
    expect(checked.json().message).toBe('Payment status: Failed');
    expect(order.status).toBe('Failed');
  });
});

describe('payment reconciliation', () => {
  it('counts nothing settled for an order whose link the gateway files under another order', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const [order] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
    // a link paid in full, made for another reference, which this order's record points at
    const link = await t.deps.payments.gateway.createPaymentLink({
      referenceId: randomUUID(),
      amountPaise: order!.totalPaise,
      description: 'another order',
      customer: { name: 'Someone', email: 'someone@example.test', contact: '9876543210' },
      callbackUrl: `${t.config.PUBLIC_URL}/api/payments/callback`,
    });
    const restore = dropWebhooks(t);
    await b.checkout(new URL(link.short_url).pathname, 'pay').finally(restore);
    await t.deps.db
      .update(orders)
      .set({ paymentLinkId: link.id, paymentUrl: link.short_url })
      .where(eq(orders.id, orderId));

    const result = await reconcilePayments(t.deps);
    expect(result.settled).toBe(0);
    expect(result.failures).toContainEqual({
      orderId,
      reason: 'payment link names another order',
    });
    expect((await settledEffects(t, orderId, b.customer.id)).status).toBe('Pending');
  });
});

describe('GET /api/payments/callback', () => {
  const signed = (paymentLinkId: string, referenceId: string) => {
    const params = { paymentLinkId, referenceId, status: 'paid', paymentId: 'pay_RETURN' };
    return new URLSearchParams({
      razorpay_payment_id: params.paymentId,
      razorpay_payment_link_id: paymentLinkId,
      razorpay_payment_link_reference_id: referenceId,
      razorpay_payment_link_status: params.status,
      razorpay_signature: callbackSignature(t.deps.payments.settings.keySecret, params),
    });
  };

  it('answers 404 for a well-signed return whose reference is no order id', async () => {
    const { linkId } = await paidSilently(t);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/payments/callback?${signed(linkId, 'not-an-order-id')}`,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'Order not found' });
  });

  it('does not send the customer on as if settled when the database fails while settling', async () => {
    const { b, orderId, linkId } = await paidSilently(t);
    const db = t.deps.db;
    // the order is read, then the settling transaction finds the database gone
    t.deps.db = new Proxy(db, {
      get(target, property, receiver) {
        if (property === 'transaction') {
          return () => Promise.reject(new Error('Connection terminated unexpectedly'));
        }
        return Reflect.get(target, property, receiver) as unknown;
      },
    }) as Database;
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/payments/callback?${signed(linkId, orderId)}`,
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
    } finally {
      t.deps.db = db;
    }
    expect((await settledEffects(t, orderId, b.customer.id)).status).toBe('Pending');
  });
});
