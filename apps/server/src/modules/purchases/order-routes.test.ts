import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStatusPath, receiptPath } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { activityEvents } from '../activity/schema';
import { retirePlan } from '../plans/service';
import { buyer, paidSilently, refundEvent, sendWebhook, totalRupees } from '../../test/payments';
import { invoices } from '../invoices/schema';
import { orders } from './schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/orders', () => {
  it('creates a Pending order when the amount is the plan total to the paisa', async () => {
    const b = await buyer(t, { amountPaise: 333 });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: b.headers,
      payload: { planId: b.plan.id, amount: 4.1 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Order created',
      order: {
        planId: { _id: b.plan.id, planName: 'Professional' },
        amount: 4.1,
        formattedAmount: '₹4.10',
        paymentStatus: 'Pending',
        receiptUrl: null,
      },
    });
    // the customer's activity tells of the order, and leads to it and its plan
    const events = await t.deps.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.customerId, b.customer.id));
    expect(events).toMatchObject([
      {
        type: 'order_created',
        title: 'Order created',
        description: 'Order for the Professional plan (₹4.10)',
        status: 'pending',
        details: { orderId: res.json().order._id, planId: b.plan.id },
      },
    ]);
  });

  it('refuses an amount a paisa off, with the right total in the message', async () => {
    const b = await buyer(t);
    for (const amount of [
      totalRupees(b.plan.amountPaise) - 0.01,
      totalRupees(b.plan.amountPaise) + 0.01,
      4999,
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: b.headers,
        payload: { planId: b.plan.id, amount },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        message: "Amount does not match the plan's price. The total for Professional is ₹6,148.77.",
      });
    }
    expect(await b.history()).toEqual([]);
  });

  it('refuses unknown and retired plans, fractions of a paisa and junk with a 4xx', async () => {
    const b = await buyer(t);
    const cases: [unknown, number, string][] = [
      [{ planId: randomUUID(), amount: 10 }, 404, 'Plan not found'],
      [{ planId: 'not-an-id', amount: 10 }, 404, 'Plan not found'],
      [
        { planId: b.plan.id, amount: 6148.775 },
        400,
        'amount: Amount must be in rupees with at most two decimals',
      ],
      [{ planId: b.plan.id, amount: '6148.77' }, 400, 'amount'],
      [{ planId: b.plan.id }, 400, 'amount'],
      [{ amount: 10 }, 400, 'planId'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: b.headers,
        payload: payload as object,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().success).toBe(false);
      expect(res.json().message).toContain(message);
    }
    await retirePlan(t.deps.db, t.clock, b.plan.id);
    const retired = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: b.headers,
      payload: { planId: b.plan.id, amount: totalRupees(b.plan.amountPaise) },
    });
    expect(retired.statusCode).toBe(409);
    expect(retired.json().message).toBe('This plan is no longer offered');
  });

  it('needs a signed-in customer', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: { planId: 'x', amount: 1 },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/orders/history', () => {
  it("lists only the customer's own orders, newest first, and a retired plan's orders keep working", async () => {
    const a = await buyer(t);
    const other = await buyer(t);
    const first = await a.order();
    t.clock.advance(1000);
    const second = await a.order();
    const theirs = await other.order();
    await retirePlan(t.deps.db, t.clock, a.plan.id);

    const list = await a.history();
    expect(list.map((o) => o._id)).toEqual([second, first]);
    expect(list.map((o) => o._id)).not.toContain(theirs);
    expect(list[0]!.planId.planName).toBe('Professional');
    const { checkoutPath } = await a.pay(first);
    await a.checkout(checkoutPath, 'pay');
    expect((await a.history()).find((o) => o._id === first)?.paymentStatus).toBe('Completed');
  });
});

describe('POST /api/create-payment', () => {
  it("refuses another customer's order, a wrong amount and blank customer fields", async () => {
    const a = await buyer(t);
    const orderId = await a.order();
    const stranger = await createCustomer(t);
    const base = {
      order_id: orderId,
      amount: totalRupees(a.plan.amountPaise),
      customer_name: 'Acme',
      customer_email: 'a@example.test',
      customer_phone: '9876543210',
      planType: 'Single',
    };
    const cases: [Record<string, string>, object, number, string][] = [
      [await authHeaders(t, stranger.id), base, 404, 'Order not found'],
      ...[1, base.amount - 0.01, base.amount + 0.01].map(
        (amount): [Record<string, string>, object, number, string] => [
          a.headers,
          { ...base, amount },
          422,
          'Amount does not match the order. The total is ₹6,148.77.',
        ],
      ),
      [a.headers, { ...base, customer_name: '  ' }, 400, 'Customer name is required'],
      [a.headers, { ...base, order_id: 'nope' }, 404, 'Order not found'],
    ];
    for (const [headers, payload, status, message] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/create-payment',
        headers,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message).toContain(message);
    }
    expect((await a.history())[0]).toMatchObject({ _id: orderId, paymentStatus: 'Pending' });
    const [order] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order!.paymentLinkId).toBeNull();
  });
});

describe('POST /api/orders/:id/check-status', () => {
  it("settles the caller's order from what the gateway says, and finds no one else's", async () => {
    const { b, orderId } = await paidSilently(t);
    const checked = await t.app.inject({
      method: 'POST',
      url: checkStatusPath(orderId),
      headers: b.headers,
    });
    expect(checked.statusCode).toBe(200);
    expect(checked.json()).toMatchObject({
      success: true,
      message: 'Payment status: Completed',
      order: { _id: orderId, paymentStatus: 'Completed', receiptUrl: expect.any(String) },
    });

    const stranger = await buyer(t);
    const cases: [string, Record<string, string>, number, string][] = [
      [checkStatusPath(orderId), stranger.headers, 404, 'Order not found'],
      [checkStatusPath('not-an-order'), b.headers, 404, 'Order not found'],
      [checkStatusPath('a'.repeat(100)), b.headers, 404, 'Order not found'],
      [checkStatusPath(orderId), {}, 401, ''],
    ];
    for (const [url, headers, status, message] of cases) {
      const res = await t.app.inject({ method: 'POST', url, headers });
      expect(res.statusCode, url).toBe(status);
      expect(res.json(), res.body).toMatchObject({ success: false });
      expect(res.json().message).toContain(message);
    }
    // a longer id is refused by the router itself, before any lookup
    const tooLong = await t.app.inject({
      method: 'POST',
      url: checkStatusPath('a'.repeat(101)),
      headers: b.headers,
    });
    expect(tooLong.statusCode).toBe(414);
  });
});

describe('GET /api/orders/:id/receipt', () => {
  it("opens only by an untampered link made for the order's customer, for 600 s", async () => {
    const a = await buyer(t);
    const orderId = await a.order();
    const { checkoutPath } = await a.pay(orderId);
    await a.checkout(checkoutPath, 'pay');
    await t.drawDocuments();
    const url = (await a.history())[0]!.receiptUrl!;
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);

    const stranger = await createCustomer(t);
    const forged = url.replace(/sub=[^&]+/, `sub=${stranger.id}`);
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(403);
    const unsigned = `/api/orders/${orderId}/receipt`;
    expect((await t.app.inject({ method: 'GET', url: unsigned })).statusCode).toBe(403);
    // a link the stranger got for their own account cannot open someone else's receipt
    const strangersLink = t.deps.signedLinks.sign(
      `/api/orders/${orderId}/receipt`,
      stranger.id,
      600,
    );
    const res = await t.app.inject({ method: 'GET', url: strangersLink });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Receipt not available for this order.');

    // the link the list gave works for 600 s: still a second before, no longer a second after
    t.clock.advance(599_000);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    t.clock.advance(2_000);
    const expired = await t.app.inject({ method: 'GET', url });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toMatch(/expired/);
  });

  it('answers 404, never a database error, to a signed link whose order id is no UUID', async () => {
    const a = await buyer(t);
    const url = t.deps.signedLinks.sign(receiptPath('not-an-order'), a.customer.id, 600);
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      success: false,
      message: 'Receipt not available for this order.',
    });
  });

  it('offers and opens no invoice once the order is refunded, by a link made before it either', async () => {
    const a = await buyer(t);
    const orderId = await a.order();
    const { checkoutPath } = await a.pay(orderId);
    await a.checkout(checkoutPath, 'pay');
    await t.drawDocuments();
    const [paid] = await a.history();
    expect(paid).toMatchObject({ _id: orderId, paymentStatus: 'Completed' });
    const madeBefore = paid!.receiptUrl!;
    expect((await t.app.inject({ method: 'GET', url: madeBefore })).statusCode).toBe(200);

    const [order] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
    const refund = refundEvent(order!.gatewayPaymentId!, {
      id: 'rfnd_FULL',
      amountPaise: order!.totalPaise,
    });
    expect((await sendWebhook(t, 'refund.processed', refund)).json().message).toBe('applied');

    expect((await a.history())[0]).toMatchObject({
      _id: orderId,
      paymentStatus: 'Refunded',
      receiptUrl: null,
    });
    const madeAfter = t.deps.signedLinks.sign(receiptPath(orderId), a.customer.id, 600);
    for (const url of [madeBefore, madeAfter]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        success: false,
        message: 'Receipt not available for this order.',
      });
    }
    // the invoice is kept: its credit note will refer to it
    const kept = await t.deps.db.select().from(invoices).where(eq(invoices.orderId, orderId));
    expect(kept).toHaveLength(1);
  });
});
