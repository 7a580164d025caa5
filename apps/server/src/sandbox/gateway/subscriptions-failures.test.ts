import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hmacHex } from '../../adapters/payment-gateway';
import { createTestApp, type TestApp } from '../../test/app';
import {
  answerAuthorisation,
  refusal,
  runCharge,
  sandboxSdk,
} from '../../test/gateway-subscriptions';

/**
 * What goes wrong with the sandbox's subscriptions, as Razorpay's own Node SDK meets it: an
 * authorisation link left past its expire_by, and a failed charge with its webhooks.
 */

let t: TestApp;
let address: string;

interface Sent {
  event: string;
  contains: string[];
  payload: {
    subscription?: { entity: { id: string; status: string } };
    payment?: { entity: Record<string, unknown> & { id: string; subscription_id: string } };
  };
  signed: boolean;
}
/** Every webhook the sandbox sends, payments' own too, as the portal receives it. */
const sent: Sent[] = [];

beforeAll(async () => {
  t = await createTestApp();
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const deliver = t.deps.payments.fetch;
  t.deps.payments.fetch = async (url, init) => {
    const body = String(init?.body);
    const signature = new Headers(init?.headers).get('x-razorpay-signature');
    sent.push({
      ...(JSON.parse(body) as Omit<Sent, 'signed'>),
      signed: signature === hmacHex(t.deps.payments.settings.webhookSecret, body),
    });
    return deliver(url, init);
  };
});
afterAll(() => t.close());
// the sandbox takes an expire_by still to come by the wall clock: the test clock starts there
beforeEach(() => t.clock.set(new Date()));

/** The webhooks about one subscription and its payments, in the order they were sent. */
const about = (subscriptionId: string) =>
  sent.filter(
    ({ payload }) =>
      (payload.subscription?.entity.id ?? payload.payment?.entity.subscription_id) ===
      subscriptionId,
  );

const sdk = () => sandboxSdk(t, address);
const subscriptions = () => sdk().subscriptions;

async function subscribe(options: { expireBy?: number; startAt?: number } = {}) {
  const plan = await sdk().plans.create({
    period: 'monthly',
    interval: 1,
    item: { name: 'Compliance filing', amount: 49_900, currency: 'INR' },
  });
  return subscriptions().create({
    plan_id: plan.id,
    total_count: 6,
    quantity: 2,
    expire_by: options.expireBy,
    start_at: options.startAt,
  });
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const at = (unix: number) => t.clock.set(new Date(unix * 1000));
const page = (shortUrl: string) => new URL(shortUrl).pathname;

describe('a subscription past its expire_by', () => {
  it('never authorised, is expired on fetch and list, and its page takes no answer', async () => {
    const expireBy = inAnHour();
    const sub = await subscribe({ expireBy });
    const other = await subscriptions().create({
      plan_id: sub.plan_id,
      total_count: 1,
      expire_by: expireBy,
    });
    const unread = await subscribe({ expireBy });
    expect(sub).toMatchObject({ status: 'created', expire_by: expireBy });
    // a failed authorisation leaves it unauthorised
    await answerAuthorisation(t, sub.short_url, 'card', 'fail');
    at(expireBy);
    expect((await subscriptions().fetch(sub.id)).status).toBe('created');

    at(expireBy + 1);
    const listed = (await subscriptions().all({ plan_id: sub.plan_id })).items;
    expect(listed.map((s) => [s.id, s.status])).toEqual([
      [other.id, 'expired'],
      [sub.id, 'expired'],
    ]);
    const expired = await subscriptions().fetch(sub.id);
    expect(expired).toMatchObject({
      status: 'expired',
      auth_attempts: 1,
      payment_method: null,
      charge_at: null,
      paid_count: 0,
    });

    const shown = await fetch(`${address}${page(sub.short_url)}`);
    expect(shown.status).toBe(200);
    const text = await shown.text();
    expect(text).toContain('This subscription is expired.');
    expect(text).not.toContain('<form');
    const answered = await t.app.inject({
      method: 'POST',
      url: page(sub.short_url),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ method: 'upi', outcome: 'authorise' }).toString(),
    });
    expect(answered.statusCode).toBe(410);
    expect(answered.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answered.body).toContain('This subscription is expired.');

    // one that nothing read since it passed is expired all the same
    for (const id of [sub.id, unread.id]) {
      expect(await refusal(subscriptions().cancel(id))).toEqual({
        status: 400,
        description: 'Subscription is not cancellable in expired status.',
      });
    }
    expect((await runCharge(t, sub.id, { outcome: 'success' })).body).toEqual({
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: 'Subscription cannot be charged in expired status',
      },
    });
    // expired for good, even were the clock to go back
    at(expireBy - 60);
    expect(await subscriptions().fetch(sub.id)).toEqual(expired);
    expect(about(sub.id)).toEqual([]);
  });

  it('once authorised, or without one, is never expired by it', async () => {
    const expireBy = inAnHour();
    const started = await subscribe({ expireBy });
    await answerAuthorisation(t, started.short_url, 'upi');
    const later = await subscribe({ expireBy, startAt: expireBy + 7 * 24 * 3600 });
    await answerAuthorisation(t, later.short_url, 'card');
    const open = await subscribe();

    at(expireBy + 3600);
    expect((await subscriptions().fetch(started.id)).status).toBe('active');
    expect((await subscriptions().fetch(later.id)).status).toBe('authenticated');
    expect((await subscriptions().fetch(open.id)).status).toBe('created');
    expect((await runCharge(t, started.id, { outcome: 'success' })).body.paid_count).toBe(2);
    await answerAuthorisation(t, open.short_url, 'emandate');
    expect((await subscriptions().fetch(open.id)).status).toBe('active');
  });
});

describe('a failed charge', () => {
  it('sends payment.failed, then subscription.pending or .halted, with one payment', async () => {
    const sub = await subscribe();
    await answerAuthorisation(t, sub.short_url, 'emandate');
    const fail = () => runCharge(t, sub.id, { outcome: 'failure' });
    expect((await fail()).body.status).toBe('pending');

    const [failed, pending, ...rest] = about(sub.id).slice(3);
    expect(rest).toEqual([]);
    expect([failed!.event, pending!.event]).toEqual(['payment.failed', 'subscription.pending']);
    expect(failed!.contains).toEqual(['payment']);
    expect(failed!.payload.subscription).toBeUndefined();
    const payment = failed!.payload.payment!.entity;
    expect(payment).toMatchObject({
      id: expect.stringMatching(/^pay_/),
      entity: 'payment',
      amount: 2 * 49_900,
      currency: 'INR',
      status: 'failed',
      method: 'emandate',
      error_code: 'BAD_REQUEST_ERROR',
      error_description: 'Payment failed due to insufficient balance',
      error_reason: 'payment_failed',
      subscription_id: sub.id,
      created_at: expect.any(Number),
    });
    expect(payment.invoice_id === null || typeof payment.invoice_id === 'string').toBe(true);
    expect(pending!.payload.payment!.entity).toEqual(payment);
    expect(pending!.payload.subscription!.entity.status).toBe('pending');

    await fail();
    await fail();
    // halted, it is not charged again: failing it once more sends nothing
    expect((await fail()).body.status).toBe('halted');
    await runCharge(t, sub.id, { outcome: 'success' });
    const events = about(sub.id).map((w) => w.event);
    expect(events.slice(5)).toEqual([
      'payment.failed',
      'subscription.pending',
      'payment.failed',
      'subscription.halted',
      'subscription.activated',
      'subscription.charged',
    ]);
    expect(about(sub.id).every((w) => w.signed)).toBe(true);
  });
});
