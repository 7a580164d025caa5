import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { authHeaders, createCustomer } from '../test/customers';
import { orders } from '../modules/purchases/schema';
import { buyer, dropWebhooks, withBusyGateway } from '../test/payments';
import { reconcilePayments } from './reconcile-payments';
import { HOUR_MS } from '../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const statusOf = async (orderId: string) =>
  (await t.deps.db.select({ s: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]!.s;

/** The customer pays, but neither the webhook nor the browser's return reaches the portal. */
async function lostPayment(outcome: 'pay' | 'fail' = 'pay') {
  const b = await buyer(t);
  const orderId = await b.order();
  const { checkoutPath } = await b.pay(orderId);
  const restore = dropWebhooks(t);
  await b.checkout(checkoutPath, outcome).finally(restore);
  return { b, orderId };
}

describe('reconcilePayments', () => {
  it('heals a webhook outage: paid and failed orders settle from the gateway', async () => {
    const paid = await lostPayment('pay');
    const failed = await lostPayment('fail');
    expect(await statusOf(paid.orderId)).toBe('Pending');
    expect(await statusOf(failed.orderId)).toBe('Pending');

    const result = await reconcilePayments(t.deps);
    expect(result.settled).toBeGreaterThanOrEqual(2);
    expect(await statusOf(paid.orderId)).toBe('Completed');
    expect(await statusOf(failed.orderId)).toBe('Failed');
    const [order] = await paid.b.history();
    expect(order!.receiptUrl).not.toBeNull();
  });

  it('leaves an order still on the checkout page Pending', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    await b.pay(orderId);
    t.clock.advance(5 * 60 * 1000);
    await reconcilePayments(t.deps);
    expect(await statusOf(orderId)).toBe('Pending');
  });

  it('shares the work when several instances run at once, settling each order once', async () => {
    const lost = [await lostPayment(), await lostPayment(), await lostPayment()];
    t.clock.advance(5 * 60 * 1000);
    const runs = await Promise.all([
      reconcilePayments(t.deps),
      reconcilePayments(t.deps),
      reconcilePayments(t.deps),
    ]);
    expect(runs.reduce((n, r) => n + r.settled, 0)).toBe(3);
    for (const { orderId } of lost) expect(await statusOf(orderId)).toBe('Completed');
  });

  it('answers and logs each order the gateway could not tell about, with its reason', async () => {
    const { orderId } = await lostPayment();
    const logged: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    await withBusyGateway(t, async () => {
      const result = await reconcilePayments(t.deps, pino(stream));
      const reason = 'payment status check failed: payment gateway answered 503: Gateway busy';
      expect(result.failures).toContainEqual({ orderId, reason });
      expect(result.failures.length).toBe(result.checked);
      expect(logged.filter((entry) => entry.orderId === orderId)).toEqual([
        expect.objectContaining({
          msg: 'payment status check failed',
          err: 'payment gateway answered 503: Gateway busy',
        }),
        expect.objectContaining({ msg: 'reconciliation of an order failed' }),
      ]);
    });
    expect(await statusOf(orderId)).toBe('Pending');
  });

  it('gives back the lease of an order it could not check, so that a run at once tries it again', async () => {
    const { orderId } = await lostPayment();
    t.clock.advance(5 * 60 * 1000);
    await withBusyGateway(t, async () => {
      const failed = await reconcilePayments(t.deps);
      expect(failed.failures.map((f) => f.orderId)).toContain(orderId);
    });
    // the gateway is back: the next run, at once, checks and settles it
    const again = await reconcilePayments(t.deps);
    expect(again.skipped).toBe(0);
    expect(again.failures).toEqual([]);
    expect(await statusOf(orderId)).toBe('Completed');
  });

  it('says how many orders it left to a run that holds their lease', async () => {
    const { orderId } = await lostPayment();
    t.clock.advance(5 * 60 * 1000);
    // another instance claimed it a moment ago, and is still asking the gateway
    await t.deps.db.update(orders).set({ checkedAt: t.clock.now() }).where(eq(orders.id, orderId));
    const result = await reconcilePayments(t.deps);
    expect(result.skipped).toBe(1);
    expect(await statusOf(orderId)).toBe('Pending');
    t.clock.advance(2 * 60 * 1000 + 1);
    const later = await reconcilePayments(t.deps);
    expect(later.skipped).toBe(0);
    expect(await statusOf(orderId)).toBe('Completed');
  });

  it('looks back 48 hours, not further', async () => {
    const { orderId } = await lostPayment();
    t.clock.advance(49 * HOUR_MS);
    await reconcilePayments(t.deps);
    expect(await statusOf(orderId)).toBe('Pending');
  });
});

describe('POST /api/orders/:id/check-status', () => {
  it('settles one Pending order on demand', async () => {
    const { b, orderId } = await lostPayment();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${orderId}/check-status`,
      headers: b.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Payment status: Completed',
      order: { _id: orderId, paymentStatus: 'Completed' },
    });
  });

  it("answers 404 for another customer's order and changes nothing", async () => {
    const { orderId } = await lostPayment();
    const stranger = await createCustomer(t);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${orderId}/check-status`,
      headers: await authHeaders(t, stranger.id),
    });
    expect(res.statusCode).toBe(404);
    expect(await statusOf(orderId)).toBe('Pending');
  });
});
