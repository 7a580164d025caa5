import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import {
  answerAuthorisation,
  captureWebhooks,
  refusal,
  runCharge,
  sandboxSdk,
} from '../../test/gateway-subscriptions';
import { cycleStart } from './subscriptions';

/**
 * The sandbox's Plans and Subscriptions as Razorpay's own Node SDK meets them over real HTTP,
 * with the hosted authorisation page, the sandbox's charge call and the webhooks that follow.
 */

let t: TestApp;
let address: string;
let webhooks: ReturnType<typeof captureWebhooks>;
const WEEK = 7 * 24 * 3600;

beforeAll(async () => {
  t = await createTestApp();
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  webhooks = captureWebhooks(t);
});
afterAll(() => t.close());

/** The events sent about a subscription, each of them signed and taken by the portal. */
function events(subscriptionId: string) {
  const sent = webhooks(subscriptionId);
  expect(sent.every((w) => w.signed && w.answered === 200)).toBe(true);
  return sent.map((w) => w.event);
}
const named = (...events: string[]) => events.map((event) => `subscription.${event}`);

const sdk = (keySecret?: string) => sandboxSdk(t, address, keySecret);
const plans = () => sdk().plans;
const subscriptions = () => sdk().subscriptions;

const createPlan = (amount = 49_900, period: 'weekly' | 'monthly' = 'weekly') =>
  plans().create({
    period,
    interval: 1,
    item: { name: 'Compliance filing', amount, currency: 'INR', description: 'GST returns' },
    notes: { tier: 'pro' },
  });

async function subscribe(options: { amount?: number; total?: number; startAt?: number } = {}) {
  const plan = await createPlan(options.amount);
  return subscriptions().create({
    plan_id: plan.id,
    total_count: options.total ?? 6,
    quantity: 2,
    customer_notify: 0,
    notes: { order: 'A-17' },
    start_at: options.startAt,
  });
}

/** A subscription authorised with UPI Autopay, its first cycle paid. */
async function active(options: Parameters<typeof subscribe>[0] = {}) {
  const sub = await subscribe(options);
  await answerAuthorisation(t, sub.short_url, 'upi');
  return subscriptions().fetch(sub.id);
}

const page = async (shortUrl: string) =>
  (await fetch(`${address}${new URL(shortUrl).pathname}`)).text();

describe('plans', () => {
  it('are created, fetched and listed as a collection, paged and bounded by creation time', async () => {
    const plan = await createPlan(69_900, 'monthly');
    expect(plan).toMatchObject({
      id: expect.stringMatching(/^plan_[0-9A-Za-z]{22}$/),
      entity: 'plan',
      period: 'monthly',
      interval: 1,
      item: {
        id: expect.stringMatching(/^item_/),
        active: true,
        name: 'Compliance filing',
        description: 'GST returns',
        amount: 69_900,
        unit_amount: 69_900,
        currency: 'INR',
      },
      notes: { tier: 'pro' },
    });
    expect(await plans().fetch(plan.id)).toEqual(plan);
    await createPlan();
    const all = await plans().all({ count: 100 });
    expect([all.entity, Number(all.count)]).toEqual(['collection', all.items.length]);
    expect(all.items.map((p) => p.id)).toContain(plan.id);
    const second = (await plans().all({ count: 1, skip: 1 })).items;
    expect([...(await plans().all({ count: 1 })).items, ...second]).toEqual(all.items.slice(0, 2));
    const ids = async (range: { from?: number; to?: number }) =>
      (await plans().all({ ...range, count: 100 })).items.map((p) => p.id);
    expect(await ids({ from: plan.created_at, to: plan.created_at })).toContain(plan.id);
    expect(await ids({ to: plan.created_at - 1 })).not.toContain(plan.id);
  });

  it('refuses a daily plan of less than 7 days, unknown ids, bad counts and wrong keys', async () => {
    const daily = plans().create({
      period: 'daily',
      interval: 1,
      item: { name: 'Daily', amount: 10_000, currency: 'INR' },
    });
    expect(await refusal(daily)).toEqual({
      status: 400,
      description: 'The interval of a daily plan must be at least 7',
    });
    expect(await refusal(plans().fetch('plan_ExjpAUN3gVHrPJ'))).toEqual({
      status: 404,
      description: 'The id provided does not exist',
    });
    expect(await refusal(plans().all({ count: 101 }))).toMatchObject({ status: 400 });
    expect(await refusal(sdk('not-the-secret').plans.all())).toEqual({
      status: 401,
      description: 'The api key provided is invalid',
    });
  });

  it('count their cycles on the calendar: a month-end falls on a shorter month, and comes back', () => {
    const at = (period: string, interval: number, start: string, n: number) =>
      cycleStart({ period, interval }, new Date(start), n).toISOString();
    expect(at('monthly', 1, '2026-01-31T10:00:00.000Z', 1)).toBe('2026-02-28T10:00:00.000Z');
    expect(at('monthly', 1, '2026-01-31T10:00:00.000Z', 2)).toBe('2026-03-31T10:00:00.000Z');
    expect(at('yearly', 1, '2024-02-29T00:00:00.000Z', 1)).toBe('2025-02-28T00:00:00.000Z');
    expect(at('weekly', 2, '2026-12-28T00:00:00.000Z', 1)).toBe('2027-01-11T00:00:00.000Z');
    expect(at('daily', 7, '2026-03-01T00:00:00.000Z', 3)).toBe('2026-03-22T00:00:00.000Z');
  });
});

describe('subscriptions', () => {
  it('are created for authorisation at their short_url, fetched, and listed by plan', async () => {
    const sub = await subscribe();
    expect(sub).toMatchObject({
      id: expect.stringMatching(/^sub_[0-9A-Za-z]{22}$/),
      entity: 'subscription',
      status: 'created',
      total_count: 6,
      quantity: 2,
      paid_count: 0,
      remaining_count: 6,
      customer_notify: false,
      notes: { order: 'A-17' },
      payment_method: null,
      current_start: null,
      start_at: null,
      charge_at: null,
      ended_at: null,
      has_scheduled_changes: false,
    });
    expect(sub.short_url).toBe(`${t.config.PUBLIC_URL}/sandbox/razorpay/subscribe/${sub.id}`);
    expect(await subscriptions().fetch(sub.id)).toEqual(sub);
    const second = await subscriptions().create({ plan_id: sub.plan_id, total_count: 1 });
    const byPlan = await subscriptions().all({ plan_id: sub.plan_id });
    expect(byPlan.entity).toBe('collection');
    expect(byPlan.items.map((s) => s.id)).toEqual([second.id, sub.id]);
    const skipped = await subscriptions().all({ plan_id: sub.plan_id, skip: 1 });
    expect(skipped.items).toEqual([sub]);
  });

  it('refuses a missing or unknown plan, a past start, bad credentials and unknown ids', async () => {
    const create = (body: object) =>
      refusal(subscriptions().create(body as { plan_id: string; total_count: number }));
    expect(await create({ total_count: 6 })).toEqual({
      status: 400,
      description: 'The plan_id field is required',
    });
    expect(await create({ plan_id: 'plan_ExjpAUN3gVHrPJ', total_count: 6 })).toEqual({
      status: 400,
      description: 'The plan_id provided does not exist',
    });
    const { id } = await createPlan();
    const past = Math.floor(Date.now() / 1000) - 60;
    expect(await create({ plan_id: id, total_count: 6, start_at: past })).toEqual({
      status: 400,
      description: 'The start_at must be a time still to come',
    });
    expect(await refusal(sdk('not-the-secret').subscriptions.all())).toMatchObject({
      status: 401,
    });
    const unknown = 'sub_ExjpAUN3gVHrPJ';
    const { fetch: read, cancel, pause, resume } = subscriptions();
    for (const call of [read, cancel, pause, resume] as ((id: string) => Promise<unknown>)[]) {
      expect(await refusal(call(unknown))).toEqual({
        status: 404,
        description: 'The id provided does not exist',
      });
    }
    expect((await runCharge(t, unknown, { outcome: 'success' })).status).toBe(404);
  });

  it('are authorised on an accessible page, then active with their first cycle paid', async () => {
    const sub = await subscribe();
    const form = await page(sub.short_url);
    expect(form).toContain('<html lang="en">');
    expect(form.match(/<h1>/g)).toHaveLength(1);
    expect(form).toContain(`<form method="post" action="${new URL(sub.short_url).pathname}">`);
    expect(form).toContain('<legend>Authorise the mandate with</legend>');
    for (const method of ['upi', 'emandate', 'card']) {
      expect(form).toContain(`<label><input type="radio" name="method" value="${method}"`);
    }
    await answerAuthorisation(t, sub.short_url, 'card', 'fail');
    const failed = await subscriptions().fetch(sub.id);
    expect([failed.status, failed.auth_attempts]).toEqual(['created', 1]);
    expect(await page(sub.short_url)).toContain('The last authorisation failed');
    expect(events(sub.id)).toEqual([]);

    await answerAuthorisation(t, sub.short_url, 'emandate');
    const now = await subscriptions().fetch(sub.id);
    expect(now).toMatchObject({
      status: 'active',
      payment_method: 'emandate',
      customer_id: expect.stringMatching(/^cust_/),
      paid_count: 1,
      remaining_count: 5,
      auth_attempts: 0,
      current_start: now.start_at,
      current_end: now.start_at + WEEK,
      charge_at: now.start_at + WEEK,
      end_at: now.start_at + 6 * WEEK,
    });
    const sent = webhooks(sub.id);
    expect(sent.map((w) => [w.event, w.subscription.status])).toEqual([
      ['subscription.authenticated', 'authenticated'],
      ['subscription.activated', 'active'],
      ['subscription.charged', 'active'],
    ]);
    expect(events(sub.id)).toHaveLength(3);
    expect(sent[2]!.payment).toMatchObject({
      entity: 'payment',
      amount: 2 * 49_900,
      status: 'captured',
      method: 'emandate',
    });
    expect(new Set(sent.map((w) => w.payment!.id)).size).toBe(1);
    // answered once: the page says so, and pressing again changes nothing
    expect(await page(sub.short_url)).toContain('and the subscription is active');
    await answerAuthorisation(t, sub.short_url, 'upi');
    expect(await subscriptions().fetch(sub.id)).toEqual(now);
    expect(events(sub.id)).toHaveLength(3);
  });

  it('that start later stay authenticated until their first charge', async () => {
    const startAt = Math.floor(Date.now() / 1000) + 3 * WEEK;
    const sub = await subscribe({ startAt });
    expect([sub.start_at, sub.charge_at]).toEqual([startAt, startAt]);
    await answerAuthorisation(t, sub.short_url, 'card');
    expect(await subscriptions().fetch(sub.id)).toMatchObject({
      status: 'authenticated',
      paid_count: 0,
      current_start: null,
      charge_at: startAt,
    });
    expect(events(sub.id)).toEqual(named('authenticated'));
    expect((await runCharge(t, sub.id, { outcome: 'success' })).body).toMatchObject({
      status: 'active',
      paid_count: 1,
      current_start: startAt,
      current_end: startAt + WEEK,
    });
    expect(events(sub.id).slice(1)).toEqual(named('activated', 'charged'));
  });
});

describe("the sandbox's charge call", () => {
  it('moves the cycle on, goes pending then halted on failures, comes back, and completes', async () => {
    const sub = await active({ total: 3 });
    const step = async (outcome: 'success' | 'failure') => {
      const { status, body } = await runCharge(t, sub.id, { outcome });
      expect(status).toBe(200);
      return [body.status, body.paid_count, body.auth_attempts, body.current_start];
    };
    expect(await step('failure')).toEqual(['pending', 1, 1, sub.current_start]);
    expect(await step('failure')).toEqual(['pending', 1, 2, sub.current_start]);
    expect(await step('failure')).toEqual(['halted', 1, 3, sub.current_start]);
    expect(await step('failure')).toEqual(['halted', 1, 4, sub.current_start]);
    expect(await step('success')).toEqual(['active', 2, 0, sub.current_end]);
    expect(await step('success')).toEqual(['completed', 3, 0, sub.current_end! + WEEK]);
    const done = await subscriptions().fetch(sub.id);
    expect(done).toMatchObject({
      remaining_count: 0,
      charge_at: null,
      ended_at: expect.any(Number),
    });
    expect(events(sub.id).slice(3)).toEqual(
      named('pending', 'pending', 'halted', 'activated', 'charged', 'charged', 'completed'),
    );
    expect(webhooks(sub.id)[3]!.payment).toMatchObject({ status: 'failed', method: 'upi' });
    expect(await runCharge(t, sub.id, { outcome: 'success' })).toMatchObject({
      status: 400,
      body: { error: { description: 'Subscription cannot be charged in completed status' } },
    });
  });

  it("asks for the customer's authentication of a charge above ₹15,000, as RBI does", async () => {
    const large = await active({ amount: 750_001 });
    const refused = await runCharge(t, large.id, { outcome: 'success' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.description).toContain('above ₹15,000');
    expect((await subscriptions().fetch(large.id)).paid_count).toBe(1);
    const taken = await runCharge(t, large.id, { outcome: 'success', authenticated: true });
    expect(taken.body.paid_count).toBe(2);
    // ₹15,000 itself is not above it
    const atLimit = await active({ amount: 750_000 });
    expect((await runCharge(t, atLimit.id, { outcome: 'success' })).body.paid_count).toBe(2);
  });
});

describe('pause, resume and cancel', () => {
  it('move a subscription only from the statuses that allow it, and say so', async () => {
    const created = await subscribe();
    expect(await refusal(subscriptions().pause(created.id, { pause_at: 'now' }))).toEqual({
      status: 400,
      description: 'Subscription cannot be paused in created status: only an active one can',
    });
    expect(await refusal(subscriptions().cancel(created.id, true))).toMatchObject({ status: 400 });
    const sub = await active();
    expect(await refusal(subscriptions().resume(sub.id, { resume_at: 'now' }))).toEqual({
      status: 400,
      description: 'Subscription cannot be resumed in active status: only a paused one can',
    });
    const paused = await subscriptions().pause(sub.id, { pause_at: 'now' });
    expect(paused).toMatchObject({ status: 'paused', charge_at: null, pause_initiated_by: 'self' });
    expect(await refusal(subscriptions().pause(sub.id))).toMatchObject({ status: 400 });
    expect((await runCharge(t, sub.id, { outcome: 'success' })).status).toBe(400);
    expect(await subscriptions().resume(sub.id, { resume_at: 'now' })).toEqual(sub);

    // at the cycle's end: still active, and nothing shows it, as on Razorpay
    expect(await subscriptions().cancel(sub.id, true)).toEqual(sub);
    const ended = await runCharge(t, sub.id, { outcome: 'success' });
    expect(ended.body).toMatchObject({ status: 'cancelled', paid_count: 1 });
    expect(ended.body.ended_at).toBeGreaterThanOrEqual(sub.current_start!);
    expect(await refusal(subscriptions().cancel(sub.id))).toEqual({
      status: 400,
      description: 'Subscription is not cancellable in cancelled status.',
    });
    expect(events(sub.id).slice(3)).toEqual(named('paused', 'resumed', 'cancelled'));
  });

  it("cancel now given cancel_at_cycle_end false, as Razorpay's examples send it", async () => {
    const sub = await active();
    // subscriptions.cancel sends no body for false: the SDK's plain request does
    const api = sdk().api as unknown as { post(request: object): Promise<object> };
    const data = { cancel_at_cycle_end: false };
    expect(await api.post({ url: `/subscriptions/${sub.id}/cancel`, data })).toMatchObject({
      status: 'cancelled',
      ended_at: expect.any(Number),
    });
  });
});

describe('calls that race on one subscription', () => {
  /** 100 calls at once, once the database's connections are open: they meet in the database. */
  async function race<T>(id: string, call: () => Promise<T>) {
    await Promise.all(Array.from({ length: 20 }, () => subscriptions().fetch(id)));
    return Promise.allSettled(Array.from({ length: 100 }, call));
  }

  it('100 cancels cancel it once', async () => {
    const sub = await active();
    const answers = await race(sub.id, () => subscriptions().cancel(sub.id));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    const refused = answers.flatMap((a) => (a.status === 'rejected' ? [a.reason] : []));
    expect(refused.map((r: { statusCode: number }) => r.statusCode)).toEqual(Array(99).fill(400));
    expect(events(sub.id).slice(3)).toEqual(named('cancelled'));
  });

  it('100 charges each take one step, and none past the last cycle', async () => {
    const sub = await active({ total: 40 });
    const settled = await race(sub.id, () => runCharge(t, sub.id, { outcome: 'success' }));
    const answers = settled.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    const taken = answers.filter((a) => a.status === 200).map((a) => a.body.paid_count);
    expect(taken.sort((a, b) => a - b)).toEqual(Array.from({ length: 39 }, (_, i) => i + 2));
    expect(answers.filter((a) => a.status === 400)).toHaveLength(61);
    expect(await subscriptions().fetch(sub.id)).toMatchObject({
      status: 'completed',
      paid_count: 40,
    });
    const sent = events(sub.id).slice(3);
    expect(sent.filter((e) => e === 'subscription.charged')).toHaveLength(39);
    expect(sent.filter((e) => e !== 'subscription.charged')).toEqual(named('completed'));
  });
});
