import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_MESSAGE } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { buyer } from '../../test/payments';
import { randomId, SANDBOX_ID_LENGTH } from './ids';
import { sandboxPaymentLinks } from './schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the sandbox checkout', () => {
  it('is reached by a payment link id of about 131 random bits', async () => {
    const b = await buyer(t);
    const { linkId } = await b.pay(await b.order());
    expect(linkId).toMatch(new RegExp(`^plink_[0-9A-Za-z]{${SANDBOX_ID_LENGTH}}$`));
    expect(SANDBOX_ID_LENGTH * Math.log2(62)).toBeGreaterThan(128);
    // every one of the 62 characters turns up, and no id twice
    const ids = Array.from({ length: 2000 }, () => randomId('plink'));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.flatMap((id) => [...id.slice('plink_'.length)])).size).toBe(62);
  });

  it('decides only the link whose id is given, and knows no other', async () => {
    const b = await buyer(t);
    const { linkId, checkoutPath } = await b.pay(await b.order());
    const guessed = `/sandbox/razorpay/checkout/${linkId.slice(0, -1)}${linkId.endsWith('A') ? 'B' : 'A'}`;
    for (const [method, url] of [
      ['GET', guessed],
      ['POST', `${guessed}/pay`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: method === 'POST' ? '' : undefined,
      });
      expect(res.statusCode).toBe(404);
    }
    const page = await t.app.inject({ method: 'GET', url: checkoutPath });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(b.plan.planName);
  });

  it('names the order by the reference the portal shows, not its full id', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    const page = await t.app.inject({ method: 'GET', url: checkoutPath });
    expect(page.body).toContain(`#${orderId.slice(0, 6).toUpperCase()}`);
    expect(page.body).not.toContain(orderId);
  });

  it('lists, reads and cancels no link without the gateway credentials', async () => {
    const b = await buyer(t);
    const { linkId } = await b.pay(await b.order());
    for (const [method, url] of [
      ['GET', '/sandbox/razorpay/v1/payment_links'],
      ['GET', `/sandbox/razorpay/v1/payment_links/${linkId}`],
      ['POST', `/sandbox/razorpay/v1/payment_links/${linkId}/cancel`],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.body).not.toContain(linkId);
    }
    const page = await t.app.inject({ method: 'GET', url: `/sandbox/razorpay/checkout/${linkId}` });
    expect(page.body).toContain('Pay ');
    expect(page.body).not.toContain('This payment link is cancelled.');
  });
});

describe('the sandbox gateway API, given text no store keeps', () => {
  const api = (method: 'GET' | 'POST', url: string, payload?: object) => {
    const { keyId, keySecret } = t.deps.payments.settings;
    return t.app.inject({
      method,
      url: `/sandbox/razorpay/v1/payment_links${url}`,
      headers: {
        authorization: `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`,
      },
      ...(payload ? { payload } : {}),
    });
  };
  const link = {
    amount: 1000,
    currency: 'INR',
    reference_id: 'TSnul',
    description: 'Payment for policy no #23456',
    customer: { name: 'Gaurav Kumar', email: 'gaurav.kumar@example.com', contact: '+919000090000' },
    notes: { policy_name: 'Jeevan Bima' },
    callback_url: 'https://example-callback-url.com/',
    callback_method: 'get',
  };
  const links = async () => (await t.deps.db.select().from(sandboxPaymentLinks)).length;

  it('refuses a NUL in any text of a new link in Razorpay error shape, and keeps nothing', async () => {
    const before = await links();
    for (const [field, body] of [
      ['reference_id', { ...link, reference_id: 'TS\u0000nul' }],
      ['description', { ...link, description: 'Payment\u0000' }],
      ['customer.name', { ...link, customer: { ...link.customer, name: 'Gaurav\u0000' } }],
      ['notes.policy_name', { ...link, notes: { policy_name: 'Jeevan\u0000Bima' } }],
      ['notes', { ...link, notes: { 'policy\u0000name': 'Jeevan Bima' } }],
      ['callback_url', { ...link, callback_url: 'https://example-callback-url.com/\u0000' }],
    ] as const) {
      const res = await api('POST', '', body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json(), field).toEqual({
        error: { code: 'BAD_REQUEST_ERROR', description: expect.stringContaining(`The ${field} `) },
      });
      // the refusal names the field without echoing the character
      expect(res.body, field).not.toContain('\\u0000');
    }
    expect(await links()).toBe(before);
    // the same link without the NUL is taken
    expect((await api('POST', '', link)).statusCode).toBe(200);
  });

  it('refuses a NUL in the reference_id it is asked to find', async () => {
    const res = await api('GET', '?reference_id=TS%00nul');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'BAD_REQUEST_ERROR', description: `The reference_id ${TEXT_MESSAGE}` },
    });
  });
});
