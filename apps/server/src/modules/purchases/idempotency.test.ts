import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackSignature, hmacHex } from '../../adapters/payment-gateway';
import { createTestApp, type TestApp } from '../../test/app';
import { customerPlans } from '../plans/schema';
import { documentCounters, invoices } from '../invoices/schema';
import { sandboxPaymentLinks } from '../../sandbox/gateway/schema';
import { paymentEvents } from './schema';
import {
  TEST_PLAN,
  buyer,
  dropWebhooks,
  linkEvent,
  paidSilently as paidSilentlyIn,
  refundEvent,
  sendWebhook,
  settledEffects as settledEffectsIn,
} from '../../test/payments';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const webhook = (event: string, payload: unknown, eventId?: string, secret?: string) =>
  sendWebhook(t, event, payload, { eventId, secret });

const paidSilently = (outcome: 'pay' | 'fail' = 'pay') => paidSilentlyIn(t, outcome);
const settledEffects = (orderId: string, customerId: string) =>
  settledEffectsIn(t, orderId, customerId);

/** The one plan period a paid order of TEST_PLAN gets, when paid at `paidAt`. */
const yearFrom = (paidAt: Date) => ({
  startsAt: paidAt.toISOString(),
  endsAt: new Date(paidAt.getTime() + TEST_PLAN.durationDays * DAY_MS).toISOString(),
});
const labels = (answers: { json(): { message: string } }[]) =>
  answers.map((a) => a.json().message).sort();

describe('POST /api/payments/webhook', () => {
  it('applies payment_link.paid once when the same event arrives ten times at once', async () => {
    const paid = await paidSilently();
    const eventId = `evt_${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        webhook('payment_link.paid', linkEvent(paid, 'paid'), eventId),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(labels(answers)).toEqual(['applied', ...Array(9).fill('duplicate')]);
    // one transition to Completed, one activation, one receipt
    expect(await settledEffects(paid.orderId, paid.b.customer.id)).toEqual({
      status: 'Completed',
      receipts: 1,
      plans: 1,
      periods: [yearFrom(t.clock.now())],
      events: ['order_created', 'payment_completed', 'plan_activated'],
    });
    const stored = await t.deps.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, eventId));
    expect(stored).toHaveLength(1);
  });

  it('answers within 2 seconds, with the event and its effects already stored', async () => {
    const paid = await paidSilently();
    const started = performance.now();
    const res = await webhook('payment_link.paid', linkEvent(paid, 'paid'));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(res.json()).toEqual({ success: true, message: 'applied' });
    expect(await settledEffects(paid.orderId, paid.b.customer.id)).toMatchObject({
      status: 'Completed',
      receipts: 1,
    });
  });

  it('changes the order once when ten different deliveries of paid race', async () => {
    const paid = await paidSilently();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => webhook('payment_link.paid', linkEvent(paid, 'paid'))),
    );
    expect(labels(answers)).toEqual(['applied', ...Array(9).fill('unchanged')]);
    expect(await settledEffects(paid.orderId, paid.b.customer.id)).toEqual({
      status: 'Completed',
      receipts: 1,
      plans: 1,
      periods: [yearFrom(t.clock.now())],
      events: ['order_created', 'payment_completed', 'plan_activated'],
    });
  });

  it('fails the order once when ten deliveries of payment.failed race', async () => {
    const paid = await paidSilently('fail');
    const eventId = `evt_${randomUUID()}`;
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () =>
        webhook('payment.failed', linkEvent(paid, 'failed'), eventId),
      ),
      ...Array.from({ length: 5 }, () => webhook('payment.failed', linkEvent(paid, 'failed'))),
    ]);
    expect(labels(answers)).toEqual([
      'applied',
      ...Array(4).fill('duplicate'),
      ...Array(5).fill('unchanged'),
    ]);
    expect(await settledEffects(paid.orderId, paid.b.customer.id)).toEqual({
      status: 'Failed',
      receipts: 0,
      plans: 0,
      periods: [],
      events: ['order_created', 'payment_failed'],
    });
  });

  it('never moves a paid order back, whatever arrives after', async () => {
    const paid = await paidSilently();
    await webhook('payment_link.paid', linkEvent(paid, 'paid'));
    await webhook('payment.failed', linkEvent(paid, 'failed', 'pay_TEST2'));
    await webhook('payment_link.expired', linkEvent(paid, 'expired'));
    await webhook('payment_link.cancelled', linkEvent(paid, 'cancelled'));
    const effects = await settledEffects(paid.orderId, paid.b.customer.id);
    expect(effects.status).toBe('Completed');
    expect(effects.events).not.toContain('payment_failed');
  });

  it('lets a payment that arrives after a failure complete the order', async () => {
    const paid = await paidSilently();
    await webhook('payment.failed', linkEvent(paid, 'failed', 'pay_TEST2'));
    expect((await settledEffects(paid.orderId, paid.b.customer.id)).status).toBe('Failed');
    await webhook('payment_link.paid', linkEvent(paid, 'paid'));
    expect(await settledEffects(paid.orderId, paid.b.customer.id)).toMatchObject({
      status: 'Completed',
      receipts: 1,
    });
  });

  it('marks a full refund Refunded and ends the plan', async () => {
    const paid = await paidSilently();
    await webhook('payment_link.paid', linkEvent(paid, 'paid', 'pay_REFUND1'));
    const res = await webhook(
      'refund.processed',
      refundEvent('pay_REFUND1', { id: 'rfnd_1', amountPaise: paid.totalPaise }),
    );
    expect(res.json().message).toBe('applied');
    const effects = await settledEffects(paid.orderId, paid.b.customer.id);
    expect(effects.status).toBe('Refunded');
    expect(effects.events).toContain('payment_refunded');
    const [plan] = await t.deps.db
      .select()
      .from(customerPlans)
      .where(eq(customerPlans.orderId, paid.orderId));
    expect(plan!.endsAt.getTime()).toBe(t.clock.now().getTime());
  });

  it('refunds once and ends the plan once when the refund arrives many times', async () => {
    const paid = await paidSilently();
    const paidAt = t.clock.now();
    await webhook('payment_link.paid', linkEvent(paid, 'paid', 'pay_TWICE'));
    t.clock.advance(DAY_MS);
    const refundedAt = t.clock.now();
    const refund = refundEvent('pay_TWICE', { id: 'rfnd_T', amountPaise: paid.totalPaise });
    const eventId = `evt_${randomUUID()}`;
    const first = await Promise.all(
      Array.from({ length: 10 }, () => webhook('refund.processed', refund, eventId)),
    );
    expect(labels(first)).toEqual(['applied', ...Array(9).fill('duplicate')]);
    // later redeliveries under new event ids move nothing either
    t.clock.advance(DAY_MS);
    const later = await Promise.all(
      Array.from({ length: 10 }, () => webhook('refund.processed', refund)),
    );
    expect(labels(later)).toEqual(Array(10).fill('unchanged'));
    expect(await settledEffects(paid.orderId, paid.b.customer.id)).toEqual({
      status: 'Refunded',
      receipts: 1,
      plans: 1,
      periods: [{ startsAt: paidAt.toISOString(), endsAt: refundedAt.toISOString() }],
      events: ['order_created', 'payment_completed', 'payment_refunded', 'plan_activated'],
    });
  });

  it('refuses unsigned, mis-signed, id-less and unknown-order webhooks and changes nothing', async () => {
    const paid = await paidSilently();
    const payload = linkEvent(paid, 'paid');
    const body = JSON.stringify({ event: 'payment_link.paid', payload });

    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'x-razorpay-event-id': 'evt_x1' },
      payload: body,
    });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toMatchObject({ success: false });

    const misSigned = await webhook(
      'payment_link.paid',
      payload,
      undefined,
      'not-the-webhook-secret',
    );
    expect(misSigned.statusCode).toBe(401);

    const keySigned = await webhook(
      'payment_link.paid',
      payload,
      undefined,
      t.deps.payments.settings.keySecret,
    );
    expect(keySigned.statusCode).toBe(401);

    const noId = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': hmacHex(t.deps.payments.settings.webhookSecret, body),
      },
      payload: body,
    });
    expect(noId.statusCode).toBe(400);

    const unknown = await webhook(
      'payment_link.paid',
      linkEvent({ ...paid, orderId: randomUUID() }, 'paid'),
    );
    expect(unknown.statusCode).toBe(404);
    const wrongLink = await webhook(
      'payment_link.paid',
      linkEvent({ ...paid, linkId: 'plink_other' }, 'paid'),
    );
    expect(wrongLink.statusCode).toBe(404);

    expect(await settledEffects(paid.orderId, paid.b.customer.id)).toEqual({
      status: 'Pending',
      receipts: 0,
      plans: 0,
      periods: [],
      events: ['order_created'],
    });
  });

  it('acknowledges events it does not act on', async () => {
    const res = await webhook('payment.authorized', { payment: { entity: { id: 'pay_X' } } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('ignored');
  });
});

describe('GET /api/payments/callback', () => {
  it('confirms with the gateway and applies once under ten concurrent returns', async () => {
    const { b, orderId, callback } = await paidSilently();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.app.inject({ method: 'GET', url: callback.pathname + callback.search }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(303));
    expect(await settledEffects(orderId, b.customer.id)).toEqual({
      status: 'Completed',
      receipts: 1,
      plans: 1,
      periods: [yearFrom(t.clock.now())],
      events: ['order_created', 'payment_completed', 'plan_activated'],
    });
  });

  it('does not trust a well-signed callback the gateway contradicts', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { linkId } = await b.pay(orderId);
    // signed with the real key, but the gateway still says the link is unpaid
    const params = {
      paymentLinkId: linkId,
      referenceId: orderId,
      status: 'paid',
      paymentId: 'pay_FAKE',
    };
    const query = new URLSearchParams({
      razorpay_payment_id: params.paymentId,
      razorpay_payment_link_id: linkId,
      razorpay_payment_link_reference_id: orderId,
      razorpay_payment_link_status: 'paid',
      razorpay_signature: callbackSignature(t.deps.payments.settings.keySecret, params),
    });
    const res = await t.app.inject({ method: 'GET', url: `/api/payments/callback?${query}` });
    expect(res.statusCode).toBe(303);
    expect((await settledEffects(orderId, b.customer.id)).status).toBe('Pending');
  });

  it('refuses mis-signed, incomplete and unknown-order callbacks', async () => {
    const { b, orderId, callback } = await paidSilently();
    const tampered = new URLSearchParams(callback.search);
    tampered.set('razorpay_payment_link_status', 'cancelled');
    const bad = await t.app.inject({ method: 'GET', url: `${callback.pathname}?${tampered}` });
    expect(bad.statusCode).toBe(403);

    const incomplete = await t.app.inject({ method: 'GET', url: callback.pathname });
    expect(incomplete.statusCode).toBe(400);

    const otherRef = randomUUID();
    const q = new URLSearchParams(callback.search);
    const params = {
      paymentLinkId: q.get('razorpay_payment_link_id')!,
      referenceId: otherRef,
      status: 'paid',
      paymentId: q.get('razorpay_payment_id')!,
    };
    q.set('razorpay_payment_link_reference_id', otherRef);
    q.set('razorpay_signature', callbackSignature(t.deps.payments.settings.keySecret, params));
    const unknown = await t.app.inject({ method: 'GET', url: `${callback.pathname}?${q}` });
    expect(unknown.statusCode).toBe(404);

    expect((await settledEffects(orderId, b.customer.id)).status).toBe('Pending');
  });

  it('applies a failed checkout once, and a replay of it changes nothing', async () => {
    const { b, orderId, callback } = await paidSilently('fail');
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    }
    expect(await settledEffects(orderId, b.customer.id)).toMatchObject({
      status: 'Failed',
      events: ['order_created', 'payment_failed'],
    });
  });
});

describe('two orders of one customer completing at once', () => {
  it('lays the plans end to end', async () => {
    const b = await buyer(t, { durationDays: 30 });
    const callbacks = [];
    for (let i = 0; i < 2; i++) {
      const orderId = await b.order();
      const { checkoutPath } = await b.pay(orderId);
      const restore = dropWebhooks(t);
      callbacks.push(await b.checkout(checkoutPath, 'pay').finally(restore));
    }
    await Promise.all(
      callbacks.map((c) => t.app.inject({ method: 'GET', url: c.pathname + c.search })),
    );
    const periods = (
      await t.deps.db
        .select()
        .from(customerPlans)
        .where(eq(customerPlans.customerId, b.customer.id))
    ).sort((x, y) => x.startsAt.getTime() - y.startsAt.getTime());
    expect(periods).toHaveLength(2);
    expect(periods[1]!.startsAt.getTime()).toBe(periods[0]!.endsAt.getTime());
  });
});

describe('invoice numbers', () => {
  it('stay gap-free when many orders complete at once', async () => {
    const before = await t.deps.db.select().from(documentCounters);
    const paid = [];
    for (let i = 0; i < 5; i++) paid.push(await paidSilently());
    await Promise.all(
      paid.map(({ callback }) =>
        t.app.inject({ method: 'GET', url: callback.pathname + callback.search }),
      ),
    );
    const numbers = (await t.deps.db.select({ n: invoices.invoiceNumber }).from(invoices))
      .map((r) => Number(r.n.split('/').at(-1)))
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    expect(numbers.length).toBeGreaterThanOrEqual(5 + (before[0]?.lastNumber ?? 0));
  });
});

describe('the sandbox gateway API', () => {
  it('refuses calls without the key id and secret', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/sandbox/razorpay/v1/payment_links/plink_x',
    });
    expect(res.statusCode).toBe(401);
    const wrongKey = await t.app.inject({
      method: 'POST',
      url: '/sandbox/razorpay/v1/payment_links',
      headers: {
        authorization: `Basic ${Buffer.from('rzp_test_sandbox:wrong').toString('base64')}`,
      },
      payload: {
        amount: 100,
        currency: 'INR',
        reference_id: 'x',
        callback_url: 'http://x.test/',
        callback_method: 'get',
      },
    });
    expect(wrongKey.statusCode).toBe(401);
    const links = await t.deps.db
      .select()
      .from(sandboxPaymentLinks)
      .where(eq(sandboxPaymentLinks.referenceId, 'x'));
    expect(links).toEqual([]);
  });
});
