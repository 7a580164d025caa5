import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import {
  answerAuthorisation,
  captureWebhooks,
  refusal,
  runCharge,
  sandboxSdk,
  type SentWebhook,
} from '../../test/gateway-subscriptions';

/**
 * The invoices of the sandbox's subscriptions, one per charge attempt, as Razorpay's own Node
 * SDK lists and fetches them over real HTTP: what the portal reconciles lost webhooks with.
 */

let t: TestApp;
let address: string;
let webhooks: ReturnType<typeof captureWebhooks>;
const WEEK = 7 * 24 * 3600;
/** The plan's ₹499 a week, for a quantity of 2. */
const CHARGE = 2 * 49_900;

beforeAll(async () => {
  t = await createTestApp();
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  webhooks = captureWebhooks(t);
});
afterAll(() => t.close());

const sdk = () => sandboxSdk(t, address);
const invoices = () => sdk().invoices;
const list = async (subscriptionId: string, page: { count?: number; skip?: number } = {}) =>
  (await invoices().all({ subscription_id: subscriptionId, ...page })).items;

type Payment = NonNullable<SentWebhook['payment']> & { invoice_id: string };
/** The payment of each charge attempt, as its subscription's webhooks carried it, in order. */
const attempts = (subscriptionId: string) =>
  webhooks(subscriptionId)
    .filter((w) => ['subscription.charged', 'subscription.pending'].includes(w.event))
    .map((w) => w.payment as Payment);

async function subscribe(startAt?: number) {
  const plan = await sdk().plans.create({
    period: 'weekly',
    interval: 1,
    item: { name: 'Compliance filing', amount: 49_900, currency: 'INR' },
  });
  const sub = await sdk().subscriptions.create({
    plan_id: plan.id,
    total_count: 6,
    quantity: 2,
    customer_notify: 0,
    start_at: startAt,
  });
  await answerAuthorisation(t, sub.short_url, 'upi');
  return sub;
}

/** Started at authorisation, then charged once and failed once by the sandbox's charge call. */
async function chargedThrice() {
  const sub = await subscribe();
  expect((await runCharge(t, sub.id, { outcome: 'success' })).body.status).toBe('active');
  expect((await runCharge(t, sub.id, { outcome: 'failure' })).body.status).toBe('pending');
  return sdk().subscriptions.fetch(sub.id);
}

describe("a subscription's invoices", () => {
  it('are one per charge attempt, under the ids its webhooks carried, newest first', async () => {
    const sub = await chargedThrice();
    const [first, second, failed] = attempts(sub.id);
    expect([first?.status, second?.status, failed?.status]).toEqual([
      'captured',
      'captured',
      'failed',
    ]);
    const all = await invoices().all({ subscription_id: sub.id });
    expect([all.entity, Number(all.count)]).toEqual(['collection', 3]);
    expect(all.items.map((i) => [i.id, i.payment_id])).toEqual(
      [failed!, second!, first!].map((p) => [p.invoice_id, p.id]),
    );
    const start = sub.start_at!;
    const common = {
      entity: 'invoice',
      type: 'invoice',
      subscription_id: sub.id,
      customer_id: sub.customer_id,
      amount: CHARGE,
      currency: 'INR',
      short_url: null,
    };
    const paidAt = expect.any(Number);
    expect(all.items).toEqual([
      expect.objectContaining({
        ...common,
        status: 'issued',
        amount_paid: 0,
        amount_due: CHARGE,
        paid_at: null,
        billing_start: start + 2 * WEEK,
        billing_end: start + 3 * WEEK,
      }),
      expect.objectContaining({
        ...common,
        status: 'paid',
        amount_paid: CHARGE,
        amount_due: 0,
        paid_at: paidAt,
        billing_start: start + WEEK,
        billing_end: start + 2 * WEEK,
      }),
      expect.objectContaining({
        ...common,
        status: 'paid',
        amount_paid: CHARGE,
        amount_due: 0,
        paid_at: paidAt,
        billing_start: start,
        billing_end: start + WEEK,
      }),
    ]);
    expect(all.items.every((i) => i.issued_at === i.created_at)).toBe(true);
    const created = all.items.map((i) => i.created_at);
    expect(created).toEqual(created.toSorted((a, b) => b - a));
    // the payments were for what the invoices say
    expect([first, second, failed].map((p) => p!.amount)).toEqual([CHARGE, CHARGE, CHARGE]);

    for (const invoice of all.items) {
      expect(await invoices().fetch(invoice.id)).toEqual(invoice);
    }
    // another subscription's invoices are its own
    const other = await subscribe();
    expect((await list(other.id)).map((i) => i.payment_id)).toEqual([attempts(other.id)[0]!.id]);
    expect(await list(sub.id)).toEqual(all.items);
  });

  it('are paged by count and skip', async () => {
    const sub = await chargedThrice();
    const all = await list(sub.id);
    expect(all).toHaveLength(3);
    expect(await list(sub.id, { count: 2 })).toEqual(all.slice(0, 2));
    expect(await list(sub.id, { count: 1, skip: 1 })).toEqual([all[1]]);
    expect(await list(sub.id, { count: 100, skip: 2 })).toEqual([all[2]]);
    expect(await list(sub.id, { skip: 3 })).toEqual([]);
  });

  it('are raised only by a charge attempted, not by a step that charges nothing', async () => {
    // a later start is authorised without a charge
    const later = await subscribe(Math.floor(Date.now() / 1000) + 30 * 24 * 3600);
    expect(await list(later.id)).toEqual([]);

    // a halted subscription is not retried: failing it again raises nothing
    const halted = await subscribe();
    for (let i = 0; i < 3; i++) await runCharge(t, halted.id, { outcome: 'failure' });
    const before = await list(halted.id);
    expect(before.map((i) => i.status)).toEqual(['issued', 'issued', 'issued', 'paid']);
    expect((await runCharge(t, halted.id, { outcome: 'failure' })).body.status).toBe('halted');
    expect(await list(halted.id)).toEqual(before);

    // cancelled at the cycle's end, its next charge run cancels it and charges nothing
    const ending = await subscribe();
    await sdk().subscriptions.cancel(ending.id, true);
    expect((await runCharge(t, ending.id, { outcome: 'success' })).body.status).toBe('cancelled');
    expect(await list(ending.id)).toHaveLength(1);
  });

  it('refuse a bad query in Razorpay words, and an unknown invoice', async () => {
    const sub = await subscribe();
    expect(await refusal(invoices().all({ subscription_id: sub.id, count: 101 }))).toEqual({
      status: 400,
      description: 'The count may not be greater than 100',
    });
    expect(await refusal(invoices().all({ subscription_id: 'sub x' }))).toEqual({
      status: 400,
      description: 'The subscription_id is not a valid id',
    });
    const unknownKey = { subscription: sub.id } as { subscription_id?: string };
    expect(await refusal(invoices().all(unknownKey))).toEqual({
      status: 400,
      description: 'subscription is/are not required and should not be sent',
    });
    expect(await refusal(invoices().fetch('inv_ExjpAUN3gVHrPJ'))).toEqual({
      status: 404,
      description: 'The id provided does not exist',
    });
    expect(await refusal(sandboxSdk(t, address, 'not-the-secret').invoices.all())).toEqual({
      status: 401,
      description: 'The api key provided is invalid',
    });
    // an unknown subscription has none
    expect(await list('sub_ExjpAUN3gVHrPJ')).toEqual([]);
  });
});
