import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Consent, PartnerConsent } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { sandboxBankConsents } from '../../sandbox/bank/schema';
import { consentAccesses, consents } from './schema';
import { createTestPartner, decideAtBank, partnerRequest, requestTestConsent } from './testing';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const FULL_ACCOUNT = '501004123451234';
const OTHER_ACCOUNT = '000123456789';

const terms = () => ({
  permissions: ['ReadAccountsBasic', 'ReadTransactionsDetail'],
  purpose: 'Bank reconciliation in TallyPrime',
  transactionFromDateTime: '2026-04-01T00:00:00+05:30',
  transactionToDateTime: '2027-03-31T23:59:59+05:30',
  expirationDateTime: new Date(t.clock.now().getTime() + 90 * DAY_MS).toISOString(),
  fetchesPerDay: 2,
  accountNumbers: [FULL_ACCOUNT, OTHER_ACCOUNT],
});

const customerList = async (customerId: string) => {
  const headers = await authHeaders(t, customerId);
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/user-consents?userId=${customerId}`,
    headers,
  });
  return { res, data: res.json().data as Consent[] };
};

const readAccounts = (apiKey: string, consentId: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/partner/consents/${encodeURIComponent(consentId)}/accounts`,
    headers: { 'x-api-key': apiKey },
  });

const rowCounts = async () => {
  const [portal] = await t.deps.db.select({ n: count() }).from(consents);
  const [bank] = await t.deps.db.select({ n: count() }).from(sandboxBankConsents);
  return { portal: portal!.n, bank: bank!.n };
};

describe('POST /api/partner/consents with the consent terms', () => {
  it('stores and answers purpose, period, reads a day and the accounts masked, to the partner and the customer', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const res = await partnerRequest(t, apiKey, { customerId: customer.id, ...terms() });
    expect(res.statusCode).toBe(201);
    const made = res.json().data as PartnerConsent;
    expect(made).toMatchObject({
      apiList: ['ReadAccountsBasic', 'ReadTransactionsDetail'],
      purpose: 'Bank reconciliation in TallyPrime',
      transactionFromDateTime: '2026-03-31T18:30:00.000Z',
      transactionToDateTime: '2027-03-31T18:29:59.000Z',
      fetchesPerDay: 2,
      accounts: ['XXXX1234', 'XXXX6789'],
      lastAccessedAt: null,
      reconnectRequestedAt: null,
    });
    const { data } = await customerList(customer.id);
    expect(data[0]).toMatchObject({
      purpose: 'Bank reconciliation in TallyPrime',
      transactionFromDateTime: '2026-03-31T18:30:00.000Z',
      transactionToDateTime: '2027-03-31T18:29:59.000Z',
      fetchesPerDay: 2,
      accounts: ['XXXX1234', 'XXXX6789'],
      expirationDateTime: terms().expirationDateTime,
      lastAccessedAt: null,
    });
  });

  it('never stores nor sends the full account number', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const made = await requestTestConsent(t, apiKey, customer.id, terms());
    await decideAtBank(t, made.consentId, 'authorise');
    const headers = await authHeaders(t, customer.id);
    await t.app.inject({
      method: 'POST',
      url: '/api/consent/getstatus',
      headers,
      payload: { consentId: made.consentId },
    });
    const answers = [
      (await partnerRequest(t, apiKey, { customerId: customer.id, ...terms() })).body,
      (await readAccounts(apiKey, made.consentId)).body,
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/partner/consents/${made.consentId}`,
          headers: { 'x-api-key': apiKey },
        })
      ).body,
      (await customerList(customer.id)).res.body,
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/user-consents/user/${customer.id}`,
          headers,
        })
      ).body,
    ];
    for (const body of answers) {
      expect(body).not.toContain(FULL_ACCOUNT);
      expect(body).not.toContain(OTHER_ACCOUNT);
    }
    expect(answers[1]).toContain('XXXX1234');
    const stored = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.customerId, customer.id));
    expect(JSON.stringify(stored)).not.toContain(FULL_ACCOUNT);
    expect(stored[0]!.accounts).toEqual(['XXXX1234', 'XXXX6789']);
  });

  it('shows sensible defaults for a partner that sends none of the terms', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const made = await requestTestConsent(t, apiKey, customer.id);
    expect(made).toMatchObject({
      purpose: null,
      transactionFromDateTime: null,
      transactionToDateTime: null,
      fetchesPerDay: 4,
      accounts: [],
      lastAccessedAt: null,
    });
    const { data } = await customerList(customer.id);
    expect(data[0]).toMatchObject({ purpose: null, fetchesPerDay: 4, accounts: [] });
    // the bank's default expiry is shown as the consent's
    expect(data[0]!.expirationDateTime).toBe(
      new Date(t.clock.now().getTime() + 90 * DAY_MS).toISOString(),
    );
  });

  it.each([
    ['an unknown permission', { permissions: ['ReadEverything'] }, 'permission'],
    [
      'a period that ends before it starts',
      {
        transactionFromDateTime: '2027-01-01T00:00:00Z',
        transactionToDateTime: '2026-01-01T00:00:00Z',
      },
      'transactionFromDateTime must be before transactionToDateTime',
    ],
    [
      'a period of no length',
      {
        transactionFromDateTime: '2026-01-01T00:00:00Z',
        transactionToDateTime: '2026-01-01T00:00:00Z',
      },
      'transactionFromDateTime must be before transactionToDateTime',
    ],
    [
      'an expiry in the past',
      { expirationDateTime: '2026-05-01T00:00:00Z' },
      'expirationDateTime must be in the future',
    ],
    [
      'a period that starts after the expiry',
      {
        transactionFromDateTime: '2026-09-01T00:00:00Z',
        expirationDateTime: '2026-08-01T00:00:00Z',
      },
      'transactionFromDateTime must be before expirationDateTime',
    ],
    ['no reads a day', { fetchesPerDay: 0 }, 'fetchesPerDay must be at least 1'],
    ['more than 24 reads a day', { fetchesPerDay: 25 }, 'fetchesPerDay must be at most 24'],
    ['a part of a read', { fetchesPerDay: 1.5 }, 'fetchesPerDay must be a whole number'],
    ['a short account number', { accountNumbers: ['12345678'] }, 'accountNumbers'],
    ['letters in an account number', { accountNumbers: ['12345678901X'] }, 'account number'],
    ['a purpose of two letters', { purpose: 'ok' }, 'purpose'],
    [
      'a date that is not one',
      { transactionToDateTime: '2026-02-30T00:00:00Z' },
      'transactionToDateTime',
    ],
  ])('refuses %s with a 400 that says why, storing nothing', async (_what, bad, message) => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const before = await rowCounts();
    const res = await partnerRequest(t, apiKey, { customerId: customer.id, ...bad });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(JSON.stringify(res.json())).toContain(message);
    expect(await rowCounts()).toEqual(before);
  });
});

describe('GET /api/partner/consents/:consentId/accounts', () => {
  async function approved(extra: Record<string, unknown> = {}) {
    const customer = await createCustomer(t);
    const partner = await createTestPartner(t);
    const made = await requestTestConsent(t, partner.apiKey, customer.id, { ...terms(), ...extra });
    await decideAtBank(t, made.consentId, 'authorise');
    // the portal learns of the approval when the customer refreshes
    const headers = await authHeaders(t, customer.id);
    await t.app.inject({
      method: 'POST',
      url: '/api/consent/getstatus',
      headers,
      payload: { consentId: made.consentId },
    });
    return { customer, apiKey: partner.apiKey, consentId: made.consentId };
  }

  it('gives the masked accounts and the period, and shows the read as the last access', async () => {
    const { customer, apiKey, consentId } = await approved();
    t.clock.advance(60_000);
    const res = await readAccounts(apiKey, consentId);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      consentId,
      accounts: ['XXXX1234', 'XXXX6789'],
      transactionFromDateTime: '2026-03-31T18:30:00.000Z',
      transactionToDateTime: '2027-03-31T18:29:59.000Z',
      fetchesLeftToday: 1,
      accessedAt: t.clock.now().toISOString(),
    });
    const { data } = await customerList(customer.id);
    expect(data[0]!.lastAccessedAt).toBe(t.clock.now().toISOString());
  });

  it('allows the reads a day and refuses the next with a 429 until the day has passed', async () => {
    const { apiKey, consentId } = await approved({ fetchesPerDay: 2 });
    expect((await readAccounts(apiKey, consentId)).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await readAccounts(apiKey, consentId)).statusCode).toBe(200);
    const refused = await readAccounts(apiKey, consentId);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toContain('allows 2 reads a day');
    t.clock.advance(DAY_MS - 60_000 - 1);
    expect((await readAccounts(apiKey, consentId)).statusCode).toBe(429);
    t.clock.advance(1);
    const again = await readAccounts(apiKey, consentId);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.fetchesLeftToday).toBe(1);
  });

  it('refuses a consent that is not approved or has expired, and records no access', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const pending = await requestTestConsent(t, apiKey, customer.id);
    const res = await readAccounts(apiKey, pending.consentId);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('is Pending');

    const live = await approved({
      expirationDateTime: new Date(t.clock.now().getTime() + DAY_MS).toISOString(),
    });
    t.clock.advance(DAY_MS);
    const lapsed = await readAccounts(live.apiKey, live.consentId);
    expect(lapsed.statusCode).toBe(403);
    expect(lapsed.json().message).toContain('is Expired');
    const accesses = await t.deps.db.select().from(consentAccesses);
    const ids = (
      await t.deps.db.select().from(consents).where(eq(consents.consentId, live.consentId))
    ).map((row) => row.id);
    expect(accesses.filter((a) => ids.includes(a.consentRef))).toEqual([]);
  });

  it("answers 404 for another partner's consent and for one that does not exist", async () => {
    const { consentId } = await approved();
    const other = await createTestPartner(t);
    expect((await readAccounts(other.apiKey, consentId)).statusCode).toBe(404);
    expect((await readAccounts(other.apiKey, 'sbk-intent-nothing')).statusCode).toBe(404);
  });

  it('counts reads made at once exactly, and keeps the latest time as the last access', async () => {
    const { apiKey, consentId } = await approved({ fetchesPerDay: 5 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => readAccounts(apiKey, consentId)),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(7);
    const left = answers
      .filter((a) => a.statusCode === 200)
      .map((a) => a.json().data.fetchesLeftToday)
      .sort();
    expect(left).toEqual([0, 1, 2, 3, 4]);

    const [row] = await t.deps.db.select().from(consents).where(eq(consents.consentId, consentId));
    const [access] = await t.deps.db
      .select()
      .from(consentAccesses)
      .where(eq(consentAccesses.consentRef, row!.id));
    expect(access!.fetchesInWindow).toBe(5);
    expect(access!.lastAccessedAt).toEqual(t.clock.now());
  });

  it('never moves the last access back when an earlier read lands late', async () => {
    const { customer, apiKey, consentId } = await approved({ fetchesPerDay: 5 });
    const late = t.clock.now();
    t.clock.advance(5000);
    expect((await readAccounts(apiKey, consentId)).statusCode).toBe(200);
    const latest = t.clock.now();
    t.clock.set(late);
    expect((await readAccounts(apiKey, consentId)).statusCode).toBe(200);
    const { data } = await customerList(customer.id);
    expect(data[0]!.lastAccessedAt).toBe(latest.toISOString());
    t.clock.set(latest);
  });
});
