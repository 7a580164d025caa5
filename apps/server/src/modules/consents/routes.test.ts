import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Consent } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { createHttpConsentProvider } from '../../adapters/consent-provider';
import { injectFetch } from '../../lib/in-process-route';
import { SANDBOX_BANK_PREFIX } from '../../sandbox/bank/settings';
import { sandboxBankConsents } from '../../sandbox/bank/schema';
import { CONSENT_ACCESS_TOKEN_HEADER } from '../../adapters/bank-wire';
import { activityEvents } from '../activity/schema';
import { consents } from './schema';
import { createTestPartner, decideAtBank, requestTestConsent } from './testing';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function customerWithConsents(n: number, apiKey?: string) {
  const customer = await createCustomer(t);
  const key = apiKey ?? (await createTestPartner(t)).apiKey;
  const made = [];
  for (let i = 0; i < n; i += 1) {
    made.push(await requestTestConsent(t, key, customer.id));
    t.clock.advance(1000);
  }
  return { customer, headers: await authHeaders(t, customer.id), consents: made, apiKey: key };
}

const list = (headers: Record<string, string>, query: string) =>
  t.app.inject({ method: 'GET', url: `/api/user-consents?${query}`, headers });

const refresh = (headers: Record<string, string>, consentId: string) =>
  t.app.inject({ method: 'POST', url: '/api/consent/getstatus', headers, payload: { consentId } });

/** Swaps the provider for one call site, then puts the real one back. */
async function withProvider<T>(
  fetch: typeof globalThis.fetch,
  work: () => Promise<T>,
  bank = { baseUrl: 'http://bank.test', clientId: 'x', clientSecret: 'y' },
) {
  const real = t.deps.consents.provider;
  t.deps.consents.provider = createHttpConsentProvider({ ...bank, fetch });
  try {
    return await work();
  } finally {
    t.deps.consents.provider = real;
  }
}

type BankCall = { method: string; path: string; accessToken: string | null };

/** Runs `work` against the sandbox bank and answers every request that reached the bank. */
async function bankCallsDuring(work: () => Promise<unknown>): Promise<BankCall[]> {
  const calls: BankCall[] = [];
  const toBank = injectFetch(() => t.app);
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    calls.push({
      method: request.method,
      path: new URL(request.url).pathname,
      accessToken: request.headers.get(CONSENT_ACCESS_TOKEN_HEADER),
    });
    return toBank(input, init);
  };
  await withProvider(recording, work, {
    baseUrl: `http://bank.test${SANDBOX_BANK_PREFIX}`,
    ...t.deps.consents.sandboxBank!,
  });
  return calls;
}
const down: typeof fetch = async () => {
  throw new TypeError('fetch failed');
};
const garbage: typeof fetch = async () => new Response('<html>proxy error</html>');

describe('GET /api/user-consents/user/:userId', () => {
  it('lists every consent of the signed-in customer, newest first, with partner names', async () => {
    const { customer, headers, consents: made } = await customerWithConsents(3);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/user/${customer.id}`,
      headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.map((c: Consent) => c.consentId)).toEqual(
      made.map((c) => c.consentId).reverse(),
    );
    expect(body.data[0]).toMatchObject({
      consentStatus: 'Pending',
      partnerName: expect.stringContaining('Test Partner'),
      partnerId: expect.stringMatching(/^PTN-/),
      documentUploaded: 'N',
      accessToken: null,
    });
  });

  it("answers 403 and nothing else for another customer's id", async () => {
    const { customer: other } = await customerWithConsents(1);
    const { headers } = await customerWithConsents(1);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/user/${other.id}`,
      headers,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: 'You can only view your own consents.' });
  });

  it('answers 401 without a bearer token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user-consents/user/x' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/user-consents', () => {
  it('pages through the consents with total_pages, the last page partly filled', async () => {
    const { customer, headers, consents: made } = await customerWithConsents(12);
    const first = await list(headers, `page=1&limit=5&userId=${customer.id}`);
    expect(first.statusCode).toBe(200);
    expect(first.json().pagination).toEqual({ total: 12, page: 1, limit: 5, total_pages: 3 });
    expect(first.json().data[0].consentId).toBe(made[11]!.consentId);
    const last = await list(headers, `page=3&limit=5&userId=${customer.id}`);
    expect(last.json().data).toHaveLength(2);
    expect(last.json().data[1].consentId).toBe(made[0]!.consentId);
  });

  it('answers a page past the end with no data and the real page count', async () => {
    const { customer, headers } = await customerWithConsents(3);
    const res = await list(headers, `page=9&limit=10&userId=${customer.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: [], pagination: { total: 3, total_pages: 1 } });
  });

  it('answers a customer with no consents with zero pages', async () => {
    const customer = await createCustomer(t);
    const res = await list(await authHeaders(t, customer.id), `userId=${customer.id}`);
    expect(res.json()).toMatchObject({
      data: [],
      pagination: { total: 0, page: 1, limit: 10, total_pages: 0 },
    });
  });

  it('filters by status, which changes the page count', async () => {
    const { customer, headers, consents: made } = await customerWithConsents(12);
    for (const c of made.slice(0, 3)) {
      await decideAtBank(t, c.consentId, 'authorise');
      expect((await refresh(headers, c.consentId)).statusCode).toBe(200);
    }
    const all = await list(headers, `limit=5&userId=${customer.id}`);
    expect(all.json().pagination.total_pages).toBe(3);
    const approved = await list(headers, `limit=5&userId=${customer.id}&consentStatus=Approved`);
    expect(approved.json().pagination).toMatchObject({ total: 3, total_pages: 1 });
    expect(approved.json().data.every((c: Consent) => c.consentStatus === 'Approved')).toBe(true);
    const pending = await list(headers, `limit=5&userId=${customer.id}&consentStatus=Pending`);
    expect(pending.json().pagination).toMatchObject({ total: 9, total_pages: 2 });
  });

  it('never lists another customer’s consents, and refuses their id with 403', async () => {
    const a = await customerWithConsents(2);
    const b = await customerWithConsents(1);
    const own = await list(b.headers, `userId=${b.customer.id}`);
    expect(own.json().data).toHaveLength(1);
    const other = await list(b.headers, `userId=${a.customer.id}`);
    expect(other.statusCode).toBe(403);
    expect(other.body).not.toContain(a.consents[0]!.consentId);
  });

  it('refuses bad query values with a 400 that names the field', async () => {
    const { customer, headers } = await customerWithConsents(0);
    for (const query of [
      `page=0&userId=${customer.id}`,
      `page=abc&userId=${customer.id}`,
      `limit=1000&userId=${customer.id}`,
      `userId=${customer.id}&consentStatus=Active`,
      'page=1',
    ]) {
      const res = await list(headers, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });
});

describe('POST /api/consent/getstatus', () => {
  it('stores what the bank now says, with encrypted tokens, and records the change', async () => {
    const { customer, headers, consents: made } = await customerWithConsents(1);
    const consentId = made[0]!.consentId;
    await decideAtBank(t, consentId, 'authorise');
    const res = await refresh(headers, consentId);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Consent status refreshed' });
    expect(body.data.consentStatus).toBe('Approved');
    expect(body.data.accessToken).toMatch(/^sbk_at_/);
    expect(body.data.refreshToken).toMatch(/^sbk_rt_/);
    expect(body.data.accessTokenExpiresAt).not.toBeNull();

    const [row] = await t.deps.db.select().from(consents).where(eq(consents.consentId, consentId));
    expect(row!.accessTokenEnc).not.toContain(body.data.accessToken);
    expect(row!.accessTokenEnc).toMatch(/^v1\./);
    expect(row!.refreshTokenEnc).not.toContain(body.data.refreshToken);

    const events = await t.deps.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.customerId, customer.id));
    expect(events.map((e) => e.type)).toContain('consent_approved');
    expect(JSON.stringify(events)).not.toContain(body.data.accessToken);

    // asking again changes nothing but is recorded as a refresh
    const again = await refresh(headers, consentId);
    expect(again.json().data.consentStatus).toBe('Approved');
    const after = await t.deps.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.customerId, customer.id));
    expect(after.map((e) => e.type)).toContain('consent_refreshed');
  });

  it('mails the customer once for a change of status, and not for a refresh that changes nothing', async () => {
    const { customer, headers, consents: made } = await customerWithConsents(1);
    const consentId = made[0]!.consentId;
    const mailsTo = async () => (await t.outbox()).filter((mail) => mail.to === customer.email);
    const before = (await mailsTo()).length;
    await decideAtBank(t, consentId, 'authorise');
    expect((await refresh(headers, consentId)).json().data.consentStatus).toBe('Approved');
    expect((await mailsTo()).length).toBe(before + 1);
    expect((await mailsTo()).at(-1)!.text).toContain(consentId);
    expect((await refresh(headers, consentId)).json().data.consentStatus).toBe('Approved');
    expect((await mailsTo()).length).toBe(before + 1);
  });

  it('shows a rejection at the bank as Rejected', async () => {
    const { headers, consents: made } = await customerWithConsents(1);
    await decideAtBank(t, made[0]!.consentId, 'reject');
    expect((await refresh(headers, made[0]!.consentId)).json().data.consentStatus).toBe('Rejected');
  });

  it('ignores an access token sent by the client and uses the one it holds', async () => {
    const { headers, consents: made } = await customerWithConsents(1);
    await decideAtBank(t, made[0]!.consentId, 'authorise');
    await refresh(headers, made[0]!.consentId);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/consent/getstatus',
      headers,
      payload: { consentId: made[0]!.consentId, accessToken: 'placeholder-from-the-client' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.consentStatus).toBe('Approved');
  });

  it("answers 404 for another customer's consent and leaves it as it was", async () => {
    const a = await customerWithConsents(1);
    const b = await customerWithConsents(0);
    await decideAtBank(t, a.consents[0]!.consentId, 'authorise');
    const res = await refresh(b.headers, a.consents[0]!.consentId);
    expect(res.statusCode).toBe(404);
    const [row] = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.consentId, a.consents[0]!.consentId));
    expect(row!.status).toBe('Pending');
  });

  it("never calls the bank with one customer's token on another customer's request", async () => {
    const a = await customerWithConsents(1);
    const b = await customerWithConsents(0);
    const consentId = a.consents[0]!.consentId;
    await decideAtBank(t, consentId, 'authorise');
    // the portal now holds A's access token for this consent
    const held = (await refresh(a.headers, consentId)).json().data.accessToken as string;
    expect(held).toMatch(/^sbk_at_/);
    const [before] = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.consentId, consentId));

    const strangers = await bankCallsDuring(async () => {
      const res = await refresh(b.headers, consentId);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'Consent not found' });
    });
    expect(strangers).toEqual([]);
    const [after] = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.consentId, consentId));
    expect(after).toEqual(before);

    // the owner's own refresh does reach the bank, with the token held for it
    const owners = await bankCallsDuring(async () => {
      expect((await refresh(a.headers, consentId)).statusCode).toBe(200);
    });
    expect(owners).toEqual([
      {
        method: 'GET',
        path: `${SANDBOX_BANK_PREFIX}/account-access-consents/${consentId}`,
        accessToken: held,
      },
    ]);
  });

  it('answers 502 with a clear message and changes nothing when the bank is unreachable or answers garbage', async () => {
    const { headers, consents: made } = await customerWithConsents(1);
    const consentId = made[0]!.consentId;
    await decideAtBank(t, consentId, 'authorise');
    const [before] = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.consentId, consentId));

    const unreachable = await withProvider(down, () => refresh(headers, consentId));
    expect(unreachable.statusCode).toBe(502);
    expect(unreachable.json()).toEqual({
      success: false,
      message: 'The bank could not be reached. Nothing was changed; please try again later.',
    });
    const odd = await withProvider(garbage, () => refresh(headers, consentId));
    expect(odd.statusCode).toBe(502);
    expect(odd.json().message).toBe(
      'The bank sent an answer that could not be read. Nothing was changed; please try again later.',
    );
    const [after] = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.consentId, consentId));
    expect(after).toEqual(before);
  });

  it('refuses a body without a consent id', async () => {
    const { headers } = await customerWithConsents(0);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/consent/getstatus',
      headers,
      payload: {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('consentId');
  });
});

describe('expiry', () => {
  it('shows an approved consent as Expired from its expiry time on, and records it once', async () => {
    const customer = await createCustomer(t);
    let headers = await authHeaders(t, customer.id);
    const { apiKey } = await createTestPartner(t);
    const expirationDateTime = new Date(t.clock.now().getTime() + 2 * DAY_MS).toISOString();
    const consent = await requestTestConsent(t, apiKey, customer.id, { expirationDateTime });
    await decideAtBank(t, consent.consentId, 'authorise');
    await refresh(headers, consent.consentId);
    const url = `/api/user-consents/user/${customer.id}`;
    expect((await t.app.inject({ method: 'GET', url, headers })).json().data[0].consentStatus).toBe(
      'Approved',
    );

    t.clock.advance(2 * DAY_MS);
    // a new sign-in: the old access token has run out meanwhile
    headers = await authHeaders(t, customer.id);
    expect((await t.app.inject({ method: 'GET', url, headers })).json().data[0].consentStatus).toBe(
      'Expired',
    );
    await t.app.inject({ method: 'GET', url, headers });
    const events = await t.deps.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.customerId, customer.id));
    expect(events.filter((e) => e.type === 'consent_expired')).toHaveLength(1);
    // the bank agrees when asked
    expect((await refresh(headers, consent.consentId)).json().data.consentStatus).toBe('Expired');
  });
});

describe('DELETE /api/user-consents/:id', () => {
  it('revokes at the bank, then moves the consent from the list to History, without its tokens, and records it', async () => {
    const { customer, headers, consents: made } = await customerWithConsents(2);
    const all = (
      await t.app.inject({ method: 'GET', url: `/api/user-consents/user/${customer.id}`, headers })
    ).json().data as Consent[];
    const target = all[0]!;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/user-consents/${target._id}`,
      headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Consent deleted successfully' });
    const [bank] = await t.deps.db
      .select()
      .from(sandboxBankConsents)
      .where(eq(sandboxBankConsents.consentId, target.consentId));
    expect(bank!.status).toBe('Revoked');
    const listed = (
      await t.app.inject({ method: 'GET', url: `/api/user-consents/user/${customer.id}`, headers })
    ).json().data as Consent[];
    expect(listed.map((c) => c.consentId)).toEqual([made[0]!.consentId]);
    const [stored] = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.consentId, target.consentId));
    expect(stored).toMatchObject({
      status: 'Revoked',
      revokedAt: t.clock.now(),
      accessTokenEnc: null,
      refreshTokenEnc: null,
      documentKey: null,
    });
    const history = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/history?userId=${customer.id}`,
      headers,
    });
    expect(history.json().data.map((c: Consent) => [c.consentId, c.consentStatus])).toEqual([
      [target.consentId, 'Revoked'],
    ]);
    const counters = await t.app.inject({
      method: 'GET',
      url: `/api/dashboard/counters?userId=${customer.id}`,
      headers,
    });
    expect(counters.json().data.totalConsents).toBe(1);
    const events = await t.deps.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.customerId, customer.id));
    expect(events.map((e) => e.type)).toContain('consent_deleted');

    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/user-consents/${target._id}`,
      headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it("answers 404 for another customer's consent and for a malformed id, deleting nothing", async () => {
    const a = await customerWithConsents(1);
    const b = await customerWithConsents(0);
    const [row] = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.customerId, a.customer.id));
    const calls = await bankCallsDuring(async () => {
      for (const id of [row!.id, 'not-a-uuid']) {
        const res = await t.app.inject({
          method: 'DELETE',
          url: `/api/user-consents/${id}`,
          headers: b.headers,
        });
        expect(res.statusCode).toBe(404);
      }
    });
    expect(calls).toEqual([]);
    const [still] = await t.deps.db.select().from(consents).where(eq(consents.id, row!.id));
    expect(still).toBeDefined();
    const [bank] = await t.deps.db
      .select()
      .from(sandboxBankConsents)
      .where(eq(sandboxBankConsents.consentId, row!.consentId));
    expect(bank!.status).toBe('AwaitingAuthorisation');
  });

  it('keeps the consent when the bank cannot be reached, with a 502 that says so', async () => {
    const { customer, headers } = await customerWithConsents(1);
    const [row] = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.customerId, customer.id));
    const res = await withProvider(down, () =>
      t.app.inject({ method: 'DELETE', url: `/api/user-consents/${row!.id}`, headers }),
    );
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      success: false,
      message: 'The bank could not be reached. Nothing was deleted; please try again later.',
    });
    const [still] = await t.deps.db.select().from(consents).where(eq(consents.id, row!.id));
    expect(still).toEqual(row);
  });
});
