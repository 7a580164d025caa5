import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { injectFetch } from '../lib/in-process-route';
import { sandboxBankAccesses, sandboxBankConsents } from '../sandbox/bank/schema';
import { authoriseBankConsent } from '../sandbox/bank/service';
import type { ReadResponse } from './bank-wire';
import {
  ConsentProviderError,
  createHttpConsentProvider,
  type ConsentProvider,
  type ConsentTerms,
} from './consent-provider';
import { DAY_MS } from '../lib/clock';

let t: TestApp;
let provider: ConsentProvider;
beforeAll(async () => {
  t = await createTestApp();
  provider = t.deps.consents.provider;
});
afterAll(() => t.close());

/** The real adapter against the in-process sandbox bank, each request and answer seen on the way. */
function through(
  change: (answer: unknown, path: string) => unknown = (answer) => answer,
  sent: { path: string; body: unknown }[] = [],
) {
  const bank = injectFetch(() => t.app);
  return createHttpConsentProvider({
    baseUrl: 'http://bank.test/sandbox/bank',
    clientId: t.deps.consents.sandboxBank!.clientId,
    clientSecret: t.deps.consents.sandboxBank!.clientSecret,
    fetch: async (input, init) => {
      const path = new URL(String(input)).pathname;
      sent.push({ path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const response = await bank(input, init);
      const text = await response.text();
      const body = text ? JSON.parse(text) : null;
      return new Response(JSON.stringify(change(body, path)), { status: response.status });
    },
  });
}

const terms = (extra: Partial<ConsentTerms> = {}): ConsentTerms => ({
  permissions: ['ReadAccountsBasic', 'ReadTransactionsDetail'],
  expiresAt: new Date(t.clock.now().getTime() + 30 * DAY_MS),
  transactionFrom: new Date('2026-04-01T00:00:00Z'),
  transactionTo: new Date('2026-05-31T00:00:00Z'),
  purpose: 'Bank reconciliation in TallyPrime',
  fetchesPerDay: 3,
  ...extra,
});

async function authorised(extra: Partial<ConsentTerms> = {}) {
  const made = await provider.createConsent(terms(extra));
  await authoriseBankConsent(t.deps.db, t.clock, made.consentId);
  return made.consentId;
}

const bankReads = (consentId: string) =>
  t.deps.db
    .select()
    .from(sandboxBankAccesses)
    .where(eq(sandboxBankAccesses.consentId, consentId))
    .orderBy(sandboxBankAccesses.accessedAt);

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConsentProviderError);
  return error as ConsentProviderError;
}

describe('the consent provider and the terms of a consent', () => {
  it('sends the terms in the Open Banking field names and reads them back from the bank', async () => {
    const sent: { path: string; body: unknown }[] = [];
    const wanted = terms();
    const made = await through(undefined, sent).createConsent(wanted);
    expect(sent[0]!.body).toEqual({
      Data: {
        Permissions: ['ReadAccountsBasic', 'ReadTransactionsDetail'],
        ExpirationDateTime: wanted.expiresAt!.toISOString(),
        TransactionFromDateTime: '2026-04-01T00:00:00.000Z',
        TransactionToDateTime: '2026-05-31T00:00:00.000Z',
        Purpose: 'Bank reconciliation in TallyPrime',
        Frequency: { Unit: 'DAY', Value: 3 },
      },
      Risk: {},
    });
    expect(made).toMatchObject({
      expiresAt: wanted.expiresAt,
      transactionFrom: wanted.transactionFrom,
      transactionTo: wanted.transactionTo,
      purpose: 'Bank reconciliation in TallyPrime',
      fetchesPerDay: 3,
    });
    const [held] = await t.deps.db
      .select()
      .from(sandboxBankConsents)
      .where(eq(sandboxBankConsents.consentId, made.consentId));
    expect(held).toMatchObject({
      transactionFromDateTime: wanted.transactionFrom,
      transactionToDateTime: wanted.transactionTo,
      purpose: 'Bank reconciliation in TallyPrime',
      fetchesPerDay: 3,
    });
    const again = await provider.getConsent(made.consentId);
    expect(again.fetchesPerDay).toBe(3);
    expect(again.transactionFrom).toEqual(wanted.transactionFrom);
  });

  it('leaves out the terms not named, and reads the bank’s defaults back', async () => {
    const sent: { path: string; body: unknown }[] = [];
    const made = await through(undefined, sent).createConsent({ permissions: ['ReadBalances'] });
    expect(sent[0]!.body).toEqual({ Data: { Permissions: ['ReadBalances'] }, Risk: {} });
    expect(made).toMatchObject({
      transactionFrom: null,
      transactionTo: null,
      purpose: null,
      fetchesPerDay: 4,
    });
  });

  it('turns an answer whose terms cannot be read into invalid_response', async () => {
    const spoiled: Record<string, unknown>[] = [
      { TransactionFromDateTime: 'the first of April' },
      { Frequency: { Unit: 'WEEK', Value: 3 } },
      { Frequency: { Unit: 'DAY', Value: 0 } },
      { Purpose: 42 },
    ];
    for (const change of spoiled) {
      const odd = through((answer) => {
        const body = answer as { Data: Record<string, unknown> };
        return { ...body, Data: { ...body.Data, ...change } };
      });
      expect((await refusal(odd.createConsent(terms()))).kind).toBe('invalid_response');
    }
  });

  it('is refused by the bank for a period that ends before it starts', async () => {
    const error = await refusal(
      provider.createConsent(terms({ transactionFrom: new Date('2026-06-01T00:00:00Z') })),
    );
    expect(error.kind).toBe('refused');
  });
});

describe('reading data through the consent provider', () => {
  it('answers the data with the bank’s own record of the read', async () => {
    const consentId = await authorised();
    t.clock.advance(1000);
    const read = await provider.readData(consentId, { resource: 'accounts' });
    const [record] = await bankReads(consentId);
    expect(record).toMatchObject({
      id: read.accessId,
      accessedAt: t.clock.now(),
      resource: 'accounts',
      outcome: 'Allowed',
    });
    expect(read).toMatchObject({ accessedAt: t.clock.now(), fetchesLeftToday: 2 });
    expect(read.transactions).toBeNull();
  });

  it('gives only the transactions within the consent’s period', async () => {
    const consentId = await authorised();
    const read = await provider.readData(consentId, { resource: 'transactions' });
    const booked = read.transactions!.map((tx) => tx.BookingDateTime);
    // one a day from 1 April to 30 May (31 May 00:00 is before noon)
    expect(booked).toHaveLength(60);
    expect(booked[0]).toBe('2026-04-01T06:30:00.000Z');
    expect(booked.at(-1)).toBe('2026-05-30T06:30:00.000Z');
    const part = await provider.readData(consentId, {
      resource: 'transactions',
      from: new Date('2026-05-01T00:00:00Z'),
      to: new Date('2026-05-03T00:00:00Z'),
    });
    expect(part.transactions!.map((tx) => tx.BookingDateTime)).toEqual([
      '2026-05-01T06:30:00.000Z',
      '2026-05-02T06:30:00.000Z',
    ]);
    const records = await bankReads(consentId);
    expect(records.map((r) => [r.outcome, r.fromDateTime, r.toDateTime])).toEqual([
      ['Allowed', new Date('2026-04-01T00:00:00Z'), new Date('2026-05-31T00:00:00Z')],
      ['Allowed', new Date('2026-05-01T00:00:00Z'), new Date('2026-05-03T00:00:00Z')],
    ]);
  });

  it('says which term refused a read, and the bank records the refusal', async () => {
    const pending = await provider.createConsent(terms());
    expect(
      (await refusal(provider.readData(pending.consentId, { resource: 'accounts' }))).refusal,
    ).toBe('not_authorised');

    const accountsOnly = await authorised({ permissions: ['ReadAccountsBasic'] });
    const noPermission = await refusal(
      provider.readData(accountsOnly, { resource: 'transactions' }),
    );
    expect(noPermission).toMatchObject({ kind: 'refused', refusal: 'permission' });

    const consentId = await authorised({
      fetchesPerDay: 1,
      expiresAt: new Date(t.clock.now().getTime() + 2 * DAY_MS),
    });
    const early = await refusal(
      provider.readData(consentId, {
        resource: 'transactions',
        from: new Date('2026-03-31T23:59:59Z'),
      }),
    );
    expect(early.refusal).toBe('period');
    expect(early.message).toContain('covers transactions from 2026-04-01T00:00:00.000Z');
    const late = await refusal(
      provider.readData(consentId, {
        resource: 'transactions',
        to: new Date('2026-06-01T00:00:00Z'),
      }),
    );
    expect(late.refusal).toBe('period');

    await provider.readData(consentId, { resource: 'accounts' });
    const tooMany = await refusal(provider.readData(consentId, { resource: 'accounts' }));
    expect(tooMany.refusal).toBe('frequency');
    expect(tooMany.message).toContain('allows 1 reads a day');

    t.clock.advance(2 * DAY_MS);
    expect((await refusal(provider.readData(consentId, { resource: 'accounts' }))).refusal).toBe(
      'expired',
    );
    const outcomes = (await bankReads(consentId)).map((r) => r.outcome);
    expect(outcomes).toEqual([
      'OutsidePeriod',
      'OutsidePeriod',
      'Allowed',
      'FrequencyExceeded',
      'Expired',
    ]);
  });

  it('turns each bad answer to a read into invalid_response', async () => {
    const consentId = await authorised({ fetchesPerDay: 100 });
    const spoil: ((answer: ReadResponse) => unknown)[] = [
      () => 'not the answer',
      (answer) => ({ ...answer, Meta: {} }),
      (answer) => ({ ...answer, Data: { ConsentId: 'sbk-intent-someone-else' } }),
      (answer) => ({
        ...answer,
        Meta: { Access: { ...answer.Meta.Access, FetchesLeftToday: -1 } },
      }),
      (answer) => ({
        ...answer,
        Meta: {
          Access: { ...answer.Meta.Access, Resource: 'transactions' },
        },
      }),
      (answer) => ({
        ...answer,
        Meta: {
          Access: { ...answer.Meta.Access, AccessDateTime: 'today' },
        },
      }),
    ];
    for (const change of spoil) {
      const odd = through((answer) => change(answer as ReadResponse));
      const error = await refusal(odd.readData(consentId, { resource: 'accounts' }));
      expect(error.kind).toBe('invalid_response');
    }
    const noList = through((answer) => ({
      ...(answer as object),
      Data: { ConsentId: consentId },
    }));
    expect((await refusal(noList.readData(consentId, { resource: 'transactions' }))).kind).toBe(
      'invalid_response',
    );
    // a refusal that names no term is the bank's refusal, not one of the consent's terms
    const pending = await provider.createConsent(terms());
    const unnamed = through(() => ({ Code: '403 Forbidden', Message: 'no' }));
    const error = await refusal(unnamed.readData(pending.consentId, { resource: 'accounts' }));
    expect(error).toMatchObject({ kind: 'refused', refusal: undefined });
  });
});
