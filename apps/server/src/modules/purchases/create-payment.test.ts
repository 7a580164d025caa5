import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { orders } from './schema';
import { paymentEvents } from './schema';
import {
  buyer,
  refundEvent,
  sendWebhook,
  startPayment,
  withBusyGateway,
} from '../../test/payments';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const linkOf = async (orderId: string) =>
  (
    await t.deps.db
      .select({ id: orders.paymentLinkId, url: orders.paymentUrl })
      .from(orders)
      .where(eq(orders.id, orderId))
  )[0]!;

describe('POST /api/create-payment', () => {
  it('asks the gateway for the total of this order, named for its plan and customer, payable for 24 hours', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const sent: unknown[] = [];
    const { gateway } = t.deps.payments;
    const { createPaymentLink } = gateway;
    gateway.createPaymentLink = (input) => {
      sent.push(input);
      return createPaymentLink(input);
    };
    try {
      const res = await startPayment(t, b, orderId);
      expect(res.statusCode).toBe(200);
      const link = await linkOf(orderId);
      expect(res.json()).toEqual({ success: true, paymentUrl: link.url });
    } finally {
      gateway.createPaymentLink = createPaymentLink;
    }
    expect(sent).toEqual([
      {
        referenceId: orderId,
        amountPaise: 6_148_77,
        description: `Professional plan, order #${orderId.slice(0, 6).toUpperCase()}`,
        customer: {
          name: b.customer.companyName,
          email: b.customer.email,
          contact: b.customer.mobile,
        },
        callbackUrl: `${t.config.PUBLIC_URL}/api/payments/callback`,
        expireBy: Math.floor(t.clock.now().getTime() / 1000) + 24 * 60 * 60,
        notes: { order_id: orderId },
      },
    ]);
    const [stored] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
    expect(stored).toMatchObject({
      customerName: b.customer.companyName,
      customerEmail: b.customer.email,
      customerPhone: b.customer.mobile,
      paymentLinkId: expect.stringMatching(/^plink_/),
    });
  });

  it('refuses a failed order as no longer payable and a refunded one as paid, and starts no payment', async () => {
    const b = await buyer(t);
    const failed = await b.order();
    await b.checkout((await b.pay(failed)).checkoutPath, 'fail');
    const refunded = await b.order();
    await b.checkout((await b.pay(refunded)).checkoutPath, 'pay');
    const [paid] = await t.deps.db.select().from(orders).where(eq(orders.id, refunded));
    const refund = refundEvent(paid!.gatewayPaymentId!, {
      id: 'rfnd_C',
      amountPaise: paid!.totalPaise,
    });
    expect((await sendWebhook(t, 'refund.processed', refund)).json().message).toBe('applied');

    for (const [orderId, message] of [
      [failed, 'This order can no longer be paid. Please create a new order.'],
      [refunded, 'This order is already paid'],
    ] as const) {
      const before = await linkOf(orderId);
      const res = await startPayment(t, b, orderId);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ success: false, message });
      expect(await linkOf(orderId)).toEqual(before);
    }
  });

  it('answers 502 when the gateway refuses, keeps the order payable, and starts it once the gateway is back', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    await withBusyGateway(t, async (busy) => {
      const res = await startPayment(t, b, orderId);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ success: false, message: 'Payment initiation failed' });
      expect(busy.requests).toHaveLength(1);
    });
    expect(await linkOf(orderId)).toEqual({ id: null, url: null });
    expect((await startPayment(t, b, orderId)).statusCode).toBe(200);
  });
});

describe('POST /api/payments/webhook with a body that is not JSON', () => {
  it.each(['application/json', 'text/plain'])(
    'answers 400 to %s that does not parse, and stores no event',
    async (contentType) => {
      const eventsBefore = (await t.deps.db.select({ n: count() }).from(paymentEvents))[0]!.n;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        headers: {
          'content-type': contentType,
          'x-razorpay-signature': 'ab'.repeat(32),
          'x-razorpay-event-id': `evt_${randomUUID()}`,
        },
        payload: '{"event": "payment_link.paid",',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        message: 'Request body is not valid JSON',
      });
      expect((await t.deps.db.select({ n: count() }).from(paymentEvents))[0]!.n).toBe(eventsBefore);
    },
  );
});
