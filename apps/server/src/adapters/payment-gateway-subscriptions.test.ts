import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { answerAuthorisation, runCharge } from '../test/gateway-subscriptions';
import { createRazorpayGateway, type GatewayError, type GatewaySettings } from './payment-gateway';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const gateway = () => t.deps.payments.gateway;

/** What the gateway refused, as the adapter reports it. */
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => 'answered',
    (error: GatewayError) => [error.status, error.message],
  );

async function authorisedSubscription(totalCount = 12) {
  const plan = await gateway().createPlan({
    period: 'monthly',
    interval: 1,
    name: 'Professional',
    amountPaise: 499_900,
  });
  const sub = await gateway().createSubscription({ planId: plan.id, totalCount });
  await answerAuthorisation(t, sub.short_url, 'upi');
  return gateway().fetchSubscription(sub.id);
}

describe('the subscriptions contract, spoken to the sandbox gateway', () => {
  it('creates a plan and a subscription, which the customer authorises at its short_url', async () => {
    const plan = await gateway().createPlan({
      period: 'weekly',
      interval: 2,
      name: 'Professional',
      amountPaise: 499_900,
      description: 'GST filing',
      notes: { plan: 'pro' },
    });
    expect(plan).toMatchObject({
      id: expect.stringMatching(/^plan_/),
      period: 'weekly',
      interval: 2,
      item: { name: 'Professional', amount: 499_900, currency: 'INR', description: 'GST filing' },
      notes: { plan: 'pro' },
    });
    const sub = await gateway().createSubscription({
      planId: plan.id,
      totalCount: 12,
      notes: { order_id: 'order-1' },
    });
    expect(sub).toMatchObject({
      id: expect.stringMatching(/^sub_/),
      plan_id: plan.id,
      status: 'created',
      quantity: 1,
      total_count: 12,
      paid_count: 0,
      payment_method: null,
      notes: { order_id: 'order-1' },
    });
    expect(new URL(sub.short_url).pathname).toBe(`/sandbox/razorpay/subscribe/${sub.id}`);
    // the portal tells its customers itself
    expect(await gateway().fetchSubscription(sub.id)).toMatchObject({ customer_notify: false });

    await answerAuthorisation(t, sub.short_url, 'emandate');
    const active = await gateway().fetchSubscription(sub.id);
    expect(active).toMatchObject({
      status: 'active',
      payment_method: 'emandate',
      paid_count: 1,
      remaining_count: 11,
      current_start: active.start_at,
      current_end: active.start_at! + 14 * 24 * 3600,
    });
  });

  it('starts a subscription later, with a quantity and a deadline to authorise by', async () => {
    const plan = await gateway().createPlan({
      period: 'yearly',
      interval: 1,
      name: 'Professional',
      amountPaise: 100_000,
    });
    const startAt = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;
    const expireBy = startAt - 24 * 3600;
    const sub = await gateway().createSubscription({
      planId: plan.id,
      totalCount: 3,
      quantity: 3,
      startAt,
      expireBy,
      customerNotify: true,
    });
    expect(sub).toMatchObject({
      quantity: 3,
      start_at: startAt,
      charge_at: startAt,
      expire_by: expireBy,
      customer_notify: true,
    });
  });

  it('pauses, resumes and cancels at the end of the cycle or now', async () => {
    const sub = await authorisedSubscription();
    expect(await gateway().pauseSubscription(sub.id)).toMatchObject({
      status: 'paused',
      charge_at: null,
    });
    expect(await gateway().resumeSubscription(sub.id)).toEqual(sub);
    const atCycleEnd = await gateway().cancelSubscription(sub.id, { atCycleEnd: true });
    expect(atCycleEnd).toMatchObject({ status: 'active', ended_at: null });
    expect((await runCharge(t, sub.id, { outcome: 'success' })).body.status).toBe('cancelled');

    const other = await authorisedSubscription();
    const now = await gateway().cancelSubscription(other.id, { atCycleEnd: false });
    expect(now).toMatchObject({ status: 'cancelled', ended_at: expect.any(Number) });
  });

  it("lists a subscription's invoices, one per charge attempt, newest first", async () => {
    const sub = await authorisedSubscription();
    await runCharge(t, sub.id, { outcome: 'success' });
    await runCharge(t, sub.id, { outcome: 'failure' });
    const invoices = await gateway().listSubscriptionInvoices(sub.id);
    const start = sub.start_at!;
    expect(invoices.map((i) => [i.status, i.amount, i.amount_paid])).toEqual([
      ['issued', 499_900, 0],
      ['paid', 499_900, 499_900],
      ['paid', 499_900, 499_900],
    ]);
    expect(invoices.map((i) => i.billing_start)).toEqual([
      invoices[1]!.billing_end,
      invoices[2]!.billing_end,
      start,
    ]);
    expect(invoices.every((i) => i.subscription_id === sub.id && /^pay_/.test(i.payment_id!))).toBe(
      true,
    );
    expect(invoices.map((i) => i.paid_at === null)).toEqual([true, false, false]);
    expect(await gateway().listSubscriptionInvoices('sub_ExjpAUN3gVHrPJ')).toEqual([]);
  });

  it("reports the gateway's refusals with their status and description", async () => {
    const sub = await authorisedSubscription();
    expect(await refusal(gateway().resumeSubscription(sub.id))).toEqual([
      400,
      'payment gateway answered 400: Subscription cannot be resumed in active status: only a paused one can',
    ]);
    await gateway().cancelSubscription(sub.id, { atCycleEnd: false });
    expect(await refusal(gateway().pauseSubscription(sub.id))).toEqual([
      400,
      'payment gateway answered 400: Subscription cannot be paused in cancelled status: only an active one can',
    ]);
    expect(await refusal(gateway().fetchSubscription('sub_ExjpAUN3gVHrPJ'))).toEqual([
      404,
      'payment gateway answered 404: The id provided does not exist',
    ]);
    const plan = gateway().createPlan({
      period: 'daily',
      interval: 1,
      name: 'x',
      amountPaise: 100,
    });
    expect(await refusal(plan)).toEqual([
      400,
      'payment gateway answered 400: The interval of a daily plan must be at least 7',
    ]);
  });
});

describe('the subscriptions contract, pointed at Razorpay by configuration', () => {
  const settings: GatewaySettings = {
    baseUrl: 'https://api.razorpay.example/',
    keyId: 'rzp_test_1DP5mmOlF5G5ag',
    keySecret: 'EnLs21M47BllR3X8PSFtjtbd',
    webhookSecret: 'whsec_test_1234',
    sandbox: false,
  };

  it('sends each call, with Basic auth, to the configured gateway', async () => {
    const calls: { method?: string; url: string; body: unknown; auth: string | null }[] = [];
    const razorpay = createRazorpayGateway(settings, async (url, init = {}) => {
      const body = init.body === undefined ? undefined : JSON.parse(String(init.body));
      const auth = new Headers(init.headers).get('authorization');
      calls.push({ method: init.method, url, body, auth });
      return Response.json({ id: 'sub_1' });
    });
    await razorpay.createPlan({ period: 'monthly', interval: 1, name: 'Pro', amountPaise: 9900 });
    await razorpay.createSubscription({ planId: 'plan_1', totalCount: 12, startAt: 1_900_000_000 });
    await razorpay.fetchSubscription('sub_1');
    await razorpay.cancelSubscription('sub_1', { atCycleEnd: true });
    await razorpay.pauseSubscription('sub_1');
    await razorpay.resumeSubscription('sub_1');
    const api = 'https://api.razorpay.example/v1';
    expect(calls.map(({ method, url, body }) => [method, url, body])).toEqual([
      [
        'POST',
        `${api}/plans`,
        {
          period: 'monthly',
          interval: 1,
          item: { name: 'Pro', amount: 9900, currency: 'INR' },
          notes: {},
        },
      ],
      [
        'POST',
        `${api}/subscriptions`,
        {
          plan_id: 'plan_1',
          total_count: 12,
          quantity: 1,
          customer_notify: 0,
          notes: {},
          start_at: 1_900_000_000,
        },
      ],
      ['GET', `${api}/subscriptions/sub_1`, undefined],
      ['POST', `${api}/subscriptions/sub_1/cancel`, { cancel_at_cycle_end: 1 }],
      ['POST', `${api}/subscriptions/sub_1/pause`, { pause_at: 'now' }],
      ['POST', `${api}/subscriptions/sub_1/resume`, { resume_at: 'now' }],
    ]);
    const basic = `Basic ${Buffer.from(`${settings.keyId}:${settings.keySecret}`).toString('base64')}`;
    expect(calls.every((call) => call.auth === basic)).toBe(true);
  });

  it("pages through a subscription's invoices 100 at a time until a page comes back short", async () => {
    const held = Array.from({ length: 203 }, (_, n) => ({ id: `inv_${203 - n}` }));
    const asked: string[] = [];
    let raised = false;
    const razorpay = createRazorpayGateway(settings, async (url) => {
      asked.push(url);
      const query = new URL(url).searchParams;
      const skip = Number(query.get('skip'));
      const items = held.slice(skip, skip + Number(query.get('count')));
      // one raised while the pages are read moves the rest on: the next page repeats one
      if (!raised) held.unshift({ id: 'inv_204' });
      raised = true;
      return Response.json({ entity: 'collection', count: items.length, items });
    });
    const invoices = await razorpay.listSubscriptionInvoices('sub_1');
    const api = 'https://api.razorpay.example/v1/invoices?subscription_id=sub_1&count=100';
    expect(asked).toEqual([`${api}&skip=0`, `${api}&skip=100`, `${api}&skip=200`]);
    expect(invoices.map((i) => i.id)).toEqual(held.slice(1).map((i) => i.id));

    asked.length = 0;
    held.length = 200;
    // a full last page is followed by an empty one
    expect(await razorpay.listSubscriptionInvoices('sub_1')).toHaveLength(200);
    expect(asked).toEqual([`${api}&skip=0`, `${api}&skip=100`, `${api}&skip=200`]);
  });
});
