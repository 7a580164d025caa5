import { randomUUID } from 'node:crypto';
import Razorpay from 'razorpay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';

/**
 * The sandbox gateway as an operator's script or another client meets it: Razorpay's own Node
 * SDK over real HTTP, so the sandbox is held to the calls and shapes Razorpay's clients use,
 * not only to the portal's adapter.
 */

let t: TestApp;
let base: string;
/** Payment-link webhooks the sandbox sent, by event name. */
const webhooks: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `${address}/sandbox/razorpay`;
  const deliver = t.deps.payments.fetch;
  t.deps.payments.fetch = (url, init) => {
    webhooks.push((JSON.parse(String(init?.body)) as { event: string }).event);
    return deliver(url, init);
  };
});
afterAll(() => t.close());

/** The SDK has no option for its host: its axios instance holds it. */
function sdk(options: { keySecret?: string; headers?: { 'Content-Type': string } } = {}) {
  const { keyId, keySecret } = t.deps.payments.settings;
  const client = new Razorpay({
    key_id: keyId,
    key_secret: options.keySecret ?? keySecret,
    ...(options.headers ? { headers: options.headers } : {}),
  });
  (client.api as unknown as { rq: { defaults: { baseURL: string } } }).rq.defaults.baseURL = base;
  return client;
}

/** A link as Razorpay's documentation creates one, with a reference of its own. */
function createLink(client = sdk(), amount = 1000) {
  return client.paymentLink.create({
    amount,
    currency: 'INR',
    accept_partial: false,
    reference_id: `TS${randomUUID().slice(0, 8)}`,
    description: 'Payment for policy no #23456',
    customer: { name: 'Gaurav Kumar', email: 'gaurav.kumar@example.com', contact: '+919000090000' },
    notify: { sms: false, email: false },
    reminder_enable: false,
    notes: { policy_name: 'Jeevan Bima' },
    callback_url: 'https://example-callback-url.com/',
    callback_method: 'get',
  });
}

/** The SDK's rejection: `{ statusCode, error: { code, description } }`. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error('the call was expected to be refused');
    },
    (e: unknown) => e as { statusCode: number; error: { code: string; description: string } },
  );
  return { status: error.statusCode, code: error.error.code, description: error.error.description };
}

/** Razorpay's own filters: the SDK types only the collection options, but sends any. */
const filters = (query: Record<string, string | number>) => query as { count?: number };

/** Presses a button of the sandbox's checkout page, as the customer's browser does. */
function press(linkId: string, outcome: 'pay' | 'fail') {
  return t.app.inject({
    method: 'POST',
    url: `/sandbox/razorpay/checkout/${linkId}/${outcome}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
}

describe('the sandbox gateway through the Razorpay Node SDK', () => {
  it('creates a payment link and fetches it as Razorpay describes it', async () => {
    const client = sdk();
    const link = await createLink(client, 29_995);
    expect(link).toMatchObject({
      id: expect.stringMatching(/^plink_[0-9A-Za-z]{22}$/),
      status: 'created',
      amount: 29_995,
      amount_paid: 0,
      currency: 'INR',
      accept_partial: false,
      description: 'Payment for policy no #23456',
      customer: { name: 'Gaurav Kumar', email: 'gaurav.kumar@example.com' },
      notes: { policy_name: 'Jeevan Bima' },
      callback_method: 'get',
      cancelled_at: 0,
      payments: null,
    });
    expect(link.short_url).toBe(`${t.config.PUBLIC_URL}/sandbox/razorpay/checkout/${link.id}`);
    expect(await client.paymentLink.fetch(link.id)).toEqual(link);
  });

  it('lists links newest first, pages them with count and skip, and bounds them with from and to', async () => {
    const client = sdk();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createLink(client, 1000 + i));
    const { payment_links: all } = await client.paymentLink.all({ count: 100 });
    const times = all.map((l) => Number(l.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.map((l) => l.id)).toEqual(expect.arrayContaining(made.map((l) => l.id)));

    // the SDK asks for 10 when no count is given
    expect((await client.paymentLink.all()).payment_links).toEqual(all.slice(0, 10));
    const pages = [];
    for (let skip = 0; skip < all.length; skip += 2) {
      pages.push(...(await client.paymentLink.all({ count: 2, skip })).payment_links);
    }
    expect(pages).toEqual(all);

    const first = Number(made[0]!.created_at);
    const last = Number(made[2]!.created_at);
    const within = (await client.paymentLink.all({ from: first, to: last, count: 100 }))
      .payment_links;
    expect(within.map((l) => l.id)).toEqual(expect.arrayContaining(made.map((l) => l.id)));
    expect(within.every((l) => Number(l.created_at) >= first && Number(l.created_at) <= last)).toBe(
      true,
    );
    const before = await client.paymentLink.all({ to: first - 1, count: 100 });
    expect(before.payment_links.map((l) => l.id)).not.toContain(made[0]!.id);
    const after = await client.paymentLink.all({ from: last + 1, count: 100 });
    expect(after.payment_links.map((l) => l.id)).not.toContain(made[2]!.id);
  });

  it('finds a link by its reference_id and by a payment made on it', async () => {
    const client = sdk();
    const [paid, other] = [await createLink(client), await createLink(client)];
    expect((await press(paid.id, 'pay')).statusCode).toBe(303);
    // the SDK types `payments` as one object; Razorpay sends the list of payments tried
    const { payments } = await client.paymentLink.fetch(paid.id);
    const paymentId = (payments as unknown as { payment_id: string }[])[0]!.payment_id;
    const byPayment = await client.paymentLink.all(filters({ payment_id: paymentId }));
    expect(byPayment.payment_links.map((l) => [l.id, l.status])).toEqual([[paid.id, 'paid']]);
    const byReference = await client.paymentLink.all({
      reference_id: other.reference_id,
    } as object);
    expect(byReference.payment_links.map((l) => l.id)).toEqual([other.id]);
    const none = await client.paymentLink.all({
      reference_id: `TS${randomUUID()}`.slice(0, 40),
    } as object);
    expect(none.payment_links).toEqual([]);
  });

  it('cancels a created link, which then takes no payment and cannot be cancelled again', async () => {
    const client = sdk();
    const link = await createLink(client);
    webhooks.length = 0;
    const cancelled = await client.paymentLink.cancel(link.id);
    expect(cancelled).toMatchObject({ id: link.id, status: 'cancelled', amount_paid: 0 });
    expect(Number(cancelled.cancelled_at)).toBeGreaterThanOrEqual(Number(link.created_at));
    expect(webhooks).toEqual(['payment_link.cancelled']);
    expect(await client.paymentLink.fetch(link.id)).toEqual(cancelled);

    const page = await t.app.inject({
      method: 'GET',
      url: `/sandbox/razorpay/checkout/${link.id}`,
    });
    expect(page.body).toContain('This payment link is cancelled.');
    expect(page.body).not.toContain('/pay"');
    const pay = await press(link.id, 'pay');
    expect(pay.statusCode).toBe(303);
    expect(pay.headers.location).toBe(`/sandbox/razorpay/checkout/${link.id}`);
    expect(await client.paymentLink.fetch(link.id)).toMatchObject({
      status: 'cancelled',
      amount_paid: 0,
      payments: null,
    });

    expect(await refusal(client.paymentLink.cancel(link.id))).toMatchObject({
      status: 400,
      code: 'BAD_REQUEST_ERROR',
    });
    const paid = await createLink(client);
    await press(paid.id, 'pay');
    expect(await refusal(client.paymentLink.cancel(paid.id))).toMatchObject({ status: 400 });
    expect((await client.paymentLink.fetch(paid.id)).status).toBe('paid');
  });

  it("cancels when sent Content-Type: application/json and no body, as Razorpay's examples do", async () => {
    const client = sdk({ headers: { 'Content-Type': 'application/json' } });
    const link = await createLink(client);
    expect((await client.paymentLink.cancel(link.id)).status).toBe('cancelled');
  });

  it('refuses unknown ids, filters it does not know, counts out of range and wrong keys', async () => {
    const client = sdk();
    const unknown = 'plink_ExjpAUN3gVHrPJ';
    for (const call of [client.paymentLink.fetch(unknown), client.paymentLink.cancel(unknown)]) {
      expect(await refusal(call)).toEqual({
        status: 404,
        code: 'BAD_REQUEST_ERROR',
        description: 'The id provided does not exist',
      });
    }
    expect(await refusal(client.paymentLink.all(filters({ status: 'paid' })))).toEqual({
      status: 400,
      code: 'BAD_REQUEST_ERROR',
      description: 'status is/are not required and should not be sent',
    });
    expect(await refusal(client.paymentLink.all({ count: 101 }))).toMatchObject({ status: 400 });
    expect(await refusal(client.paymentLink.all({ skip: -1 }))).toMatchObject({ status: 400 });
    expect(await refusal(sdk({ keySecret: 'not-the-secret' }).paymentLink.all())).toEqual({
      status: 401,
      code: 'BAD_REQUEST_ERROR',
      description: 'The api key provided is invalid',
    });
  });
});
