import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { reconcilePayments } from '../../jobs/reconcile-payments';
import { sandboxPaymentLinks } from '../../sandbox/gateway/schema';
import { orders } from './schema';
import { buyer, dropWebhooks, settledEffects } from '../../test/payments';

const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  t = await createTestApp({ logStream, env: { LOG_LEVEL: 'warn' } });
});
afterAll(() => t.close());
beforeEach(() => {
  lines.length = 0;
});

type LogEntry = { level: number; orderId?: string } & Record<string, unknown>;

/** The warnings logged about one order that give `reason` (as the message or as the cause). */
const warningsAbout = (orderId: string, reason: string) =>
  lines
    .map((line) => JSON.parse(line) as LogEntry)
    .filter((e) => e.level === 40 && e.orderId === orderId && JSON.stringify(e).includes(reason));

const checkStatus = (orderId: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: `/api/orders/${orderId}/check-status`, headers });

const unsettled = {
  status: 'Pending',
  receipts: 0,
  plans: 0,
  periods: [],
  events: ['order_created'],
};

describe('a payment of another amount than the order total', () => {
  it.each([
    ['a paisa less', -1],
    ['a paisa more', +1],
  ])('with %s leaves the order Pending on every path, and is logged', async (_, deltaPaise) => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { checkoutPath, linkId } = await b.pay(orderId);
    const [order] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
    const paidPaise = order!.totalPaise + deltaPaise;
    // the gateway takes another sum than the order's: its link, its checkout and its
    // webhook all report amount_paid = paidPaise
    await t.deps.db
      .update(sandboxPaymentLinks)
      .set({ amount: paidPaise })
      .where(eq(sandboxPaymentLinks.id, linkId));

    const callback = await b.checkout(checkoutPath, 'pay'); // the signed webhook
    const back = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(back.statusCode).toBe(303);
    const checked = await checkStatus(orderId, b.headers);
    expect(checked.statusCode).toBe(200);
    expect(checked.json().message).toBe('Payment status: Pending');
    t.clock.advance(5 * 60_000);
    await reconcilePayments(t.deps, t.app.log);

    expect(await settledEffects(t, orderId, b.customer.id)).toEqual(unsettled);
    expect((await b.history())[0]).toMatchObject({ paymentStatus: 'Pending', receiptUrl: null });
    const warnings = warningsAbout(orderId, 'payment amount does not match the order');
    // webhook, callback, check-status and reconciliation each say so
    expect(warnings).toHaveLength(4);
    expect(warnings.slice(0, 3)).toEqual(
      Array(3).fill(expect.objectContaining({ paidPaise, totalPaise: order!.totalPaise })),
    );
  });
});

describe('a payment of exactly the order total', () => {
  it('completes the order on its first path, and no path warns about the amount', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    const callback = await b.checkout(checkoutPath, 'pay'); // the signed webhook
    await t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect((await checkStatus(orderId, b.headers)).json().message).toBe(
      'Payment status: Completed',
    );
    expect(warningsAbout(orderId, 'payment amount does not match the order')).toEqual([]);
  });
});

describe('a gateway answer whose reference names another order', () => {
  it('leaves this order unchanged and logs a warning', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const [order] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
    // a link paid in full at the gateway, but made for another reference
    const otherReference = randomUUID();
    const link = await t.deps.payments.gateway.createPaymentLink({
      referenceId: otherReference,
      amountPaise: order!.totalPaise,
      description: 'another order',
      customer: { name: 'Someone', email: 'someone@example.test', contact: '9876543210' },
      callbackUrl: `${t.config.PUBLIC_URL}/api/payments/callback`,
    });
    const restore = dropWebhooks(t);
    await b.checkout(new URL(link.short_url).pathname, 'pay').finally(restore);
    // this order's record points at that link
    await t.deps.db
      .update(orders)
      .set({ paymentLinkId: link.id, paymentUrl: link.short_url })
      .where(eq(orders.id, orderId));

    const checked = await checkStatus(orderId, b.headers);
    expect(checked.statusCode).toBe(200);
    expect(checked.json().order).toMatchObject({ _id: orderId, paymentStatus: 'Pending' });
    t.clock.advance(5 * 60_000);
    await reconcilePayments(t.deps, t.app.log);

    expect(await settledEffects(t, orderId, b.customer.id)).toEqual(unsettled);
    const [after] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
    expect(after!.gatewayPaymentId).toBeNull();
    expect(after!.paidAt).toBeNull();
    // check-status and reconciliation each say so
    const warnings = warningsAbout(orderId, 'payment link names another order');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({ linkId: link.id });
  });
});
