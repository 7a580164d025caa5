import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerPaths, type Consent } from '@portal/contract';
import { createHttpConsentProvider } from '../../adapters/consent-provider';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders } from '../../test/customers';
import { injectFetch } from '../../lib/in-process-route';
import { sandboxBankAccesses, sandboxBankConsents } from '../../sandbox/bank/schema';
import { consentAccesses, consents } from './schema';
import { approvedTestConsent, partnerRead } from './testing';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const terms = (extra: Record<string, unknown> = {}) => ({
  permissions: ['ReadAccountsBasic', 'ReadTransactionsDetail'],
  purpose: 'Bank reconciliation in TallyPrime',
  transactionFromDateTime: '2026-04-01T00:00:00+05:30',
  transactionToDateTime: '2026-05-01T00:00:00+05:30',
  expirationDateTime: new Date(t.clock.now().getTime() + 90 * DAY_MS).toISOString(),
  fetchesPerDay: 3,
  accountNumbers: ['501004123451234'],
  ...extra,
});

/** What each side holds of a consent's reads: the bank's records and the portal's last access. */
async function recorded(consentId: string) {
  const bank = await t.deps.db
    .select()
    .from(sandboxBankAccesses)
    .where(eq(sandboxBankAccesses.consentId, consentId))
    .orderBy(sandboxBankAccesses.accessedAt);
  const [portal] = await t.deps.db
    .select({ access: consentAccesses })
    .from(consents)
    .leftJoin(consentAccesses, eq(consentAccesses.consentRef, consents.id))
    .where(eq(consents.consentId, consentId));
  return { bank, portal: portal!.access };
}

async function lastAccessed(customerId: string, consentId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/user-consents?userId=${customerId}`,
    headers: await authHeaders(t, customerId),
  });
  const consent = (res.json().data as Consent[]).find((c) => c.consentId === consentId);
  return consent!.lastAccessedAt;
}

const atBank = (consentId: string, change: Partial<typeof sandboxBankConsents.$inferInsert>) =>
  t.deps.db
    .update(sandboxBankConsents)
    .set(change)
    .where(eq(sandboxBankConsents.consentId, consentId));

describe('POST /api/partner/consents hands the terms to the bank', () => {
  it('stores them at the bank as asked, and answers them to the partner as the bank holds them', async () => {
    const { consentId } = await approvedTestConsent(t, terms());
    const [held] = await t.deps.db
      .select()
      .from(sandboxBankConsents)
      .where(eq(sandboxBankConsents.consentId, consentId));
    expect(held).toMatchObject({
      permissions: ['ReadAccountsBasic', 'ReadTransactionsDetail'],
      transactionFromDateTime: new Date('2026-03-31T18:30:00Z'),
      transactionToDateTime: new Date('2026-04-30T18:30:00Z'),
      purpose: 'Bank reconciliation in TallyPrime',
      fetchesPerDay: 3,
      expirationDateTime: new Date(terms().expirationDateTime),
    });
  });
});

describe('GET /api/partner/consents/:consentId/transactions', () => {
  it('gives the transactions within the consent’s period, and the bank’s record of the read is the last access', async () => {
    const { customer, apiKey, consentId } = await approvedTestConsent(t, terms());
    t.clock.advance(5000);
    const res = await partnerRead(t, apiKey, consentId, 'transactions', {
      fromBookingDateTime: '2026-04-10T00:00:00Z',
      toBookingDateTime: '2026-04-13T00:00:00Z',
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.transactions.map((tx: { bookingDateTime: string }) => tx.bookingDateTime)).toEqual([
      '2026-04-10T06:30:00.000Z',
      '2026-04-11T06:30:00.000Z',
      '2026-04-12T06:30:00.000Z',
    ]);
    expect(data.transactions[0]).toMatchObject({
      currency: 'INR',
      amount: expect.stringMatching(/^\d+\.\d{2}$/),
    });
    expect(data).toMatchObject({
      consentId,
      fetchesLeftToday: 2,
      accessedAt: t.clock.now().toISOString(),
    });

    const { bank, portal } = await recorded(consentId);
    expect(bank).toHaveLength(1);
    expect(bank[0]).toMatchObject({
      resource: 'transactions',
      outcome: 'Allowed',
      accessedAt: t.clock.now(),
    });
    expect(portal).toMatchObject({ lastAccessedAt: t.clock.now(), fetchesInWindow: 1 });
    expect(await lastAccessed(customer.id, consentId)).toBe(t.clock.now().toISOString());
  });

  it('reads the whole period when the partner names none', async () => {
    const { apiKey, consentId } = await approvedTestConsent(t, terms());
    const res = await partnerRead(t, apiKey, consentId, 'transactions');
    expect(res.statusCode).toBe(200);
    const booked = res
      .json()
      .data.transactions.map((tx: { bookingDateTime: string }) => tx.bookingDateTime);
    // 1 to 30 April IST, at noon IST each day
    expect(booked).toHaveLength(30);
    expect(booked[0]).toBe('2026-04-01T06:30:00.000Z');
    expect(booked.at(-1)).toBe('2026-04-30T06:30:00.000Z');
  });

  it('refuses a period reaching outside the consent’s with a 403, recorded at the bank, and changes nothing in the portal', async () => {
    const { customer, apiKey, consentId } = await approvedTestConsent(t, terms());
    const res = await partnerRead(t, apiKey, consentId, 'transactions', {
      fromBookingDateTime: '2026-03-01T00:00:00Z',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      `The bank refused the read: Consent ${consentId} covers transactions from 2026-03-31T18:30:00.000Z to 2026-04-30T18:30:00.000Z only. Nothing was read.`,
    );
    const { bank, portal } = await recorded(consentId);
    expect(bank.map((r) => r.outcome)).toEqual(['OutsidePeriod']);
    expect(portal).toBeNull();
    expect(await lastAccessed(customer.id, consentId)).toBeNull();
  });

  it('refuses with a 403 a single bound that leaves nothing of the consent’s period', async () => {
    const { apiKey, consentId } = await approvedTestConsent(t, terms());
    const queries: Record<string, string>[] = [
      { toBookingDateTime: '2026-03-01T00:00:00Z' },
      { fromBookingDateTime: '2026-05-02T00:00:00Z' },
    ];
    for (const query of queries) {
      const res = await partnerRead(t, apiKey, consentId, 'transactions', query);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toContain('covers transactions from');
    }
    const { bank, portal } = await recorded(consentId);
    expect(bank.map((r) => r.outcome)).toEqual(['OutsidePeriod', 'OutsidePeriod']);
    expect(portal).toBeNull();
  });

  it('refuses a consent without a transactions permission with a 403, and changes nothing in the portal', async () => {
    const { apiKey, consentId } = await approvedTestConsent(
      t,
      terms({ permissions: ['ReadAccountsBasic'] }),
    );
    const res = await partnerRead(t, apiKey, consentId, 'transactions');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('does not grant the permission this read needs');
    const { bank, portal } = await recorded(consentId);
    expect(bank.map((r) => r.outcome)).toEqual(['PermissionMissing']);
    expect(portal).toBeNull();
  });

  it('answers 404 for another partner’s consent and an unknown one, 401 without a key, 400 for an id with a NUL, and asks the bank nothing', async () => {
    const { consentId } = await approvedTestConsent(t, terms());
    const other = await approvedTestConsent(t, terms());
    expect((await partnerRead(t, other.apiKey, consentId, 'transactions')).statusCode).toBe(404);
    expect((await partnerRead(t, other.apiKey, 'sbk-intent-none', 'transactions')).statusCode).toBe(
      404,
    );
    expect((await partnerRead(t, other.apiKey, 'a\u0000b', 'transactions')).statusCode).toBe(400);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/partner/consents/${consentId}/transactions`,
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await recorded(consentId)).bank).toEqual([]);
  });

  it('answers 400 for a period that ends before it starts, or is not a date, without asking the bank', async () => {
    const { apiKey, consentId } = await approvedTestConsent(t, terms());
    const backwards = await partnerRead(t, apiKey, consentId, 'transactions', {
      fromBookingDateTime: '2026-04-20T00:00:00Z',
      toBookingDateTime: '2026-04-10T00:00:00Z',
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe('fromBookingDateTime must be before toBookingDateTime');
    const garbled = await partnerRead(t, apiKey, consentId, 'transactions', {
      fromBookingDateTime: 'yesterday',
    });
    expect(garbled.statusCode).toBe(400);
    expect((await recorded(consentId)).bank).toEqual([]);
  });
});

describe('the bank’s terms decide a partner’s read of the accounts', () => {
  it('refuses with a 403 a consent the bank holds as expired, though the portal does not yet', async () => {
    const { customer, apiKey, consentId } = await approvedTestConsent(t, terms());
    await atBank(consentId, { expirationDateTime: t.clock.now() });
    const res = await partnerRead(t, apiKey, consentId, 'accounts');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain(`Consent ${consentId} expired at`);
    const { bank, portal } = await recorded(consentId);
    expect(bank.map((r) => r.outcome)).toEqual(['Expired']);
    expect(portal).toBeNull();
    expect(await lastAccessed(customer.id, consentId)).toBeNull();
  });

  it('refuses with a 429 once the bank counts the day’s reads used, and changes nothing in the portal', async () => {
    const { apiKey, consentId } = await approvedTestConsent(t, terms());
    expect((await partnerRead(t, apiKey, consentId, 'accounts')).statusCode).toBe(200);
    // reads the portal did not see (another of the bank's channels) use up the day
    await atBank(consentId, { fetchesInWindow: 3 });
    t.clock.advance(1000);
    const res = await partnerRead(t, apiKey, consentId, 'accounts');
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toContain('allows 3 reads a day');
    const { bank, portal } = await recorded(consentId);
    expect(bank.map((r) => r.outcome)).toEqual(['Allowed', 'FrequencyExceeded']);
    expect(portal).toMatchObject({ fetchesInWindow: 1, lastAccessedAt: bank[0]!.accessedAt });
  });

  it('records each allowed read once at the bank and once in the portal', async () => {
    const { customer, apiKey, consentId } = await approvedTestConsent(t, terms());
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(60_000);
      const res = await partnerRead(t, apiKey, consentId, i === 1 ? 'transactions' : 'accounts');
      expect(res.statusCode).toBe(200);
      expect(res.json().data.fetchesLeftToday).toBe(2 - i);
    }
    const { bank, portal } = await recorded(consentId);
    expect(bank.map((r) => [r.resource, r.outcome])).toEqual([
      ['accounts', 'Allowed'],
      ['transactions', 'Allowed'],
      ['accounts', 'Allowed'],
    ]);
    expect(portal).toMatchObject({ fetchesInWindow: 3, lastAccessedAt: bank[2]!.accessedAt });
    expect(await lastAccessed(customer.id, consentId)).toBe(bank[2]!.accessedAt.toISOString());
  });

  it('refuses at the portal, without asking the bank, once the portal has seen the day’s reads', async () => {
    const { apiKey, consentId } = await approvedTestConsent(t, terms({ fetchesPerDay: 1 }));
    expect((await partnerRead(t, apiKey, consentId, 'accounts')).statusCode).toBe(200);
    // the bank forgets the day (a stand-in for a bank that lets more through): the guard holds
    await atBank(consentId, { fetchesInWindow: 0 });
    const res = await partnerRead(t, apiKey, consentId, 'accounts');
    expect(res.statusCode).toBe(429);
    const { bank } = await recorded(consentId);
    expect(bank.map((r) => r.outcome)).toEqual(['Allowed']);
  });

  it('answers 502 when the bank’s answer to a read cannot be read, and records no access', async () => {
    const { customer, apiKey, consentId } = await approvedTestConsent(t, terms());
    const real = t.deps.consents.provider;
    const bank = injectFetch(() => t.app);
    t.deps.consents.provider = createHttpConsentProvider({
      baseUrl: 'http://bank.test/sandbox/bank',
      clientId: t.deps.consents.sandboxBank!.clientId,
      clientSecret: t.deps.consents.sandboxBank!.clientSecret,
      fetch: async (input, init) => {
        const answer = (await (await bank(input, init)).json()) as object;
        return Response.json({ ...answer, Meta: { Access: { AccessId: 'x' } } });
      },
    });
    try {
      const res = await partnerRead(t, apiKey, consentId, 'accounts');
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toBe(
        'The bank sent an answer that could not be read. Nothing was read; please try again later.',
      );
    } finally {
      t.deps.consents.provider = real;
    }
    expect((await recorded(consentId)).portal).toBeNull();
    expect(await lastAccessed(customer.id, consentId)).toBeNull();
    const [left] = await t.deps.db
      .select()
      .from(sandboxBankAccesses)
      .where(
        and(
          eq(sandboxBankAccesses.consentId, consentId),
          eq(sandboxBankAccesses.outcome, 'Allowed'),
        ),
      );
    // the bank did allow and record it: its answer was lost on the way
    expect(left).toBeDefined();
  });
});

describe('GET /api/docs/json names the transactions read', () => {
  it('with its period in the query, its partner key and every answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const path = partnerPaths.transactions.replace(':consentId', '{consentId}');
    const get = res.json().paths[path].get;
    expect(get.tags).toEqual(['partner']);
    expect(get.security).toEqual([{ partnerKey: [] }]);
    expect(
      get.parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`).sort(),
    ).toEqual(['path consentId', 'query fromBookingDateTime', 'query toBookingDateTime']);
    expect(Object.keys(get.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '429', '502']),
    );
  });
});
