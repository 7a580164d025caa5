import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_TIME_RANGE_MESSAGE, TEXT_MESSAGE } from '@portal/contract';
import { SANDBOX_GATEWAY_PREFIX } from './adapters/payment-gateway';
import { SANDBOX_BANK_PREFIX } from './sandbox/bank/settings';
import { createTestPartner } from './modules/consents/testing';
import { activitySeen } from './modules/activity/schema';
import { orders } from './modules/purchases/schema';
import { paymentEvents } from './modules/purchases/schema';
import { buyer, signedWebhook } from './test/payments';
import { createTestApp, type TestApp } from './test/app';
import { authHeaders, createCustomer } from './test/customers';

let t: TestApp;
let customerId: string;
let signedIn: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const customer = await createCustomer(t);
  customerId = customer.id;
  signedIn = await authHeaders(t, customer.id);
});
afterAll(() => t.close());

const PARAM_VALUES = [
  'x',
  '0',
  '00000000-0000-0000-0000-000000000000',
  '%2e%2e%2f',
  'a'.repeat(300),
];
const BODIES: (string | undefined)[] = [
  undefined,
  '{}',
  '[]',
  '"text"',
  'null',
  '{"a":',
  JSON.stringify({ email: 1, password: [], planId: {}, amount: 'lots', page: -1, consentId: null }),
  JSON.stringify({ tempToken: 'x'.repeat(10_000), verificationCode: '12345678' }),
];
const QUERIES = ['', '?page=-1&limit=abc&userId=', '?page=1e9&limit=1e9&cursor=%00&type=unknown'];

/** Every route the OpenAPI document lists, with its path parameters filled in. */
async function routes() {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path })),
  );
}

describe('anything a client can send', () => {
  it('is answered below 500 by every route, signed in or not', async () => {
    const list = await routes();
    expect(list.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const { method, path } of list) {
      for (const value of PARAM_VALUES) {
        const url = path.replace(/\{[^}]+\}/g, encodeURIComponent(value));
        for (const query of QUERIES) {
          for (const body of method === 'GET' || method === 'DELETE' ? [undefined] : BODIES) {
            for (const headers of [{}, signedIn]) {
              const res = await t.app.inject({
                method: method as 'GET',
                url: url + query,
                headers: {
                  ...headers,
                  ...(body === undefined ? {} : { 'content-type': 'application/json' }),
                },
                ...(body === undefined ? {} : { payload: body }),
              });
              if (res.statusCode >= 500)
                failures.push(
                  `${method} ${url}${query} ${body ?? ''} -> ${res.statusCode} ${res.body.slice(0, 120)}`,
                );
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('an address the router itself refuses', () => {
  it('is answered in the portal error shape: a path id over the length limit, a broken escape', async () => {
    const tooLong = await t.app.inject({
      method: 'GET',
      url: `/api/partner/consents/${'a'.repeat(300)}`,
    });
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json()).toEqual({
      success: false,
      message: 'A value in the address is too long',
    });
    const broken = await t.app.inject({ method: 'GET', url: '/api/partner/consents/%E0%A4%A' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ success: false, message: 'The address is not a valid URL' });
  });
});

const VALID_LOGIN = {
  email: 'a@b.co',
  mobile: '9876543210',
  gstNo: '27AAPFU0939F1ZV',
  tally_serialno: '712345678',
  password: 'Secret@123',
};
const NUL_EMAIL = 'a\u0000@b.co';

/** The sweep above ends the shared session (it calls logout), so later cases sign in anew. */
const freshSession = () => authHeaders(t, customerId);

const refusedAs = (res: { statusCode: number; json(): unknown }, message: string) => {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ success: false, message, error: 'validation' });
};

describe('text with a NUL character in it', () => {
  it('is refused with 400 by sign-in and the reset request, without a token', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { ...VALID_LOGIN, email: NUL_EMAIL },
    });
    refusedAs(login, `email: ${TEXT_MESSAGE}`);
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/users/forgot-password',
      payload: { email: NUL_EMAIL },
    });
    refusedAs(forgot, `email: ${TEXT_MESSAGE}`);
  });

  it('is refused with 400 as a consent id, in the status refresh and in the partner API', async () => {
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/consent/getstatus',
      headers: await freshSession(),
      payload: { consentId: 'a\u0000b' },
    });
    refusedAs(refresh, `consentId: ${TEXT_MESSAGE}`);
    const { apiKey } = await createTestPartner(t);
    const partner = await t.app.inject({
      method: 'GET',
      url: '/api/partner/consents/a%00b',
      headers: { 'x-api-key': apiKey },
    });
    refusedAs(partner, `consentId: ${TEXT_MESSAGE}`);
  });

  it('is answered 4xx in every path id of the sandbox gateway and bank', async () => {
    const { keyId, keySecret } = t.deps.payments.settings;
    const bank = t.deps.consents.sandboxBank!;
    const basic = (user: string, password: string) => ({
      authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
    });
    const gatewayKey = basic(keyId, keySecret);
    const bankClient = basic(bank.clientId, bank.clientSecret);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const requests = [
      {
        method: 'GET',
        url: `${SANDBOX_GATEWAY_PREFIX}/v1/payment_links/a%00b`,
        headers: gatewayKey,
      },
      { method: 'GET', url: `${SANDBOX_GATEWAY_PREFIX}/checkout/a%00b`, headers: {} },
      { method: 'POST', url: `${SANDBOX_GATEWAY_PREFIX}/checkout/a%00b/pay`, headers: form },
      { method: 'POST', url: `${SANDBOX_GATEWAY_PREFIX}/checkout/a%00b/fail`, headers: form },
      {
        method: 'GET',
        url: `${SANDBOX_BANK_PREFIX}/account-access-consents/a%00b`,
        headers: bankClient,
      },
      {
        method: 'DELETE',
        url: `${SANDBOX_BANK_PREFIX}/account-access-consents/a%00b`,
        headers: bankClient,
      },
      {
        method: 'POST',
        url: `${SANDBOX_BANK_PREFIX}/consents/a%00b/authorise`,
        headers: { ...bankClient, ...form },
      },
      {
        method: 'POST',
        url: `${SANDBOX_BANK_PREFIX}/consents/a%00b/reject`,
        headers: { ...bankClient, ...form },
      },
    ] as const;
    const answers: string[] = [];
    for (const request of requests) {
      const res = await t.app.inject({
        ...request,
        payload: request.method === 'POST' ? '' : undefined,
      });
      answers.push(
        `${request.method} ${request.url} -> ${res.statusCode >= 400 && res.statusCode < 500 ? '4xx' : res.statusCode}`,
      );
    }
    expect(answers).toEqual(requests.map((r) => `${r.method} ${r.url} -> 4xx`));
  });
});

describe('GET /api/activity', () => {
  const cursor = (at: string) => Buffer.from(`${at}|${randomUUID()}`, 'utf8').toString('base64url');

  it('refuses with 400 a cursor of the right shape whose date does not exist', async () => {
    const headers = await freshSession();
    for (const at of [
      '2024-13-45T99:99:99.999999Z',
      '2024-02-30T10:00:00.000000Z',
      '2023-02-29T00:00:00.000000Z',
      '0000-01-01T00:00:00.000000Z',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/activity?cursor=${cursor(at)}`,
        headers,
      });
      expect(res.statusCode, at).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message: 'cursor: is not valid',
        error: 'validation',
      });
    }
  });
});

describe('POST /api/notifications/seen', () => {
  it('refuses year 0 and dates that do not exist with 400, and marks nothing', async () => {
    const headers = await freshSession();
    const seen = (upTo: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/notifications/seen',
        headers,
        payload: { upTo },
      });
    refusedAs(await seen('0000-01-01T00:00:00Z'), `upTo: ${DATE_TIME_RANGE_MESSAGE}`);
    for (const upTo of ['2024-02-30T00:00:00Z', '2024-13-45T99:99:99Z', '10000-01-01T00:00:00Z']) {
      expect((await seen(upTo)).statusCode, upTo).toBe(400);
    }
    const marks = await t.deps.db
      .select()
      .from(activitySeen)
      .where(eq(activitySeen.customerId, customerId));
    expect(marks).toEqual([]);
  });
});

describe('POST /api/payments/webhook', () => {
  /** A Pending order with a payment link, and a webhook signed as the gateway signs it. */
  async function pendingOrder() {
    const b = await buyer(t);
    const orderId = await b.order();
    const { linkId } = await b.pay(orderId);
    return { orderId, linkId };
  }
  const signed = (body: string) => signedWebhook(t, body);
  const storedEvents = async () =>
    (await t.deps.db.select({ n: count() }).from(paymentEvents))[0]!.n;
  const statusOf = async (orderId: string) =>
    (await t.deps.db.select().from(orders).where(eq(orders.id, orderId)))[0]!.status;

  it('refuses a correctly signed body that is null or not an object with 400, storing nothing', async () => {
    const before = await storedEvents();
    for (const body of ['null', '[]', '"payment_link.paid"', '42', 'true']) {
      const res = await signed(body);
      expect(res.statusCode, body).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: 'validation' });
    }
    expect(await storedEvents()).toBe(before);
  });

  it('refuses a signed payment id that is not a string with 400; the order stays Pending', async () => {
    const { orderId, linkId } = await pendingOrder();
    const before = await storedEvents();
    for (const id of [{ evil: 1 }, ['pay_1'], 42, null]) {
      const body = JSON.stringify({
        event: 'payment_link.paid',
        payload: {
          payment_link: { entity: { id: linkId, reference_id: orderId, status: 'paid' } },
          payment: { entity: { id, status: 'captured' } },
        },
      });
      const res = await signed(body);
      expect(res.statusCode, JSON.stringify(id)).toBe(400);
      expect(res.json().message).toMatch(/^payload\.payment\.entity\.id: /);
    }
    expect(await storedEvents()).toBe(before);
    expect(await statusOf(orderId)).toBe('Pending');
  });

  it('refuses a signed body with a NUL anywhere, which the payload column cannot hold', async () => {
    const before = await storedEvents();
    const res = await signed(JSON.stringify({ event: 'payment.authorized', note: 'a\u0000b' }));
    expect(res.statusCode).toBe(400);
    expect(await storedEvents()).toBe(before);
  });
});
