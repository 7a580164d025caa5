import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client';
import { DAY_MS } from '../../lib/clock';
import { createTestClock } from '../../test/clock';
import { openTestDatabase } from '../../test/database';
import { sandboxBankAccesses, sandboxBankConsents } from './schema';
import {
  ACCESS_TOKEN_TTL_MS,
  authoriseBankConsent,
  createBankConsent,
  DEFAULT_CONSENT_DAYS,
  findBankConsent,
  isBankConsentId,
  listBankConsents,
  rejectBankConsent,
  revokeBankConsent,
  SandboxBankError,
} from './service';
import { readAtBank, sandboxTransactions, summariseBankReads } from './reads';

// The sandbox bank's own rules, beside its code: what a consent holds when asked for, how the
// customer's decision and the client's withdrawal change it, and which reads its terms allow.
let handle: DatabaseHandle;
const clock = createTestClock();
const NOW = new Date('2026-06-01T10:00:00.000Z');
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());
beforeEach(() => clock.set(NOW));

const db = () => handle.db;
const ACCOUNTS = ['ReadAccountsBasic'];
const EVERYTHING = ['ReadAccountsDetail', 'ReadTransactionsDetail'];

const ask = (input: Partial<Parameters<typeof createBankConsent>[2]> = {}) =>
  createBankConsent(db(), clock, { clientId: 'portal', permissions: EVERYTHING, ...input });

async function authorised(input: Partial<Parameters<typeof createBankConsent>[2]> = {}) {
  const asked = await ask(input);
  return authoriseBankConsent(db(), clock, asked.consentId);
}

/** The refusal `promise` ends with: its HTTP status and message. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SandboxBankError);
  const { status, message } = error as SandboxBankError;
  return { status, message };
}

const row = async (consentId: string) => (await findBankConsent(db(), consentId))!;
const accessesOf = (consentId: string) =>
  db().select().from(sandboxBankAccesses).where(eq(sandboxBankAccesses.consentId, consentId));

describe('a consent asked for', () => {
  it('awaits the customer, with the terms asked for, a new id, and 90 days when no expiry is named', async () => {
    const asked = await ask({
      permissions: ['ReadAccountsBasic', 'ReadAccountsBasic', 'ReadTransactionsCredits'],
    });
    expect(asked).toMatchObject({
      clientId: 'portal',
      status: 'AwaitingAuthorisation',
      permissions: ['ReadAccountsBasic', 'ReadTransactionsCredits'],
      expirationDateTime: new Date(NOW.getTime() + DEFAULT_CONSENT_DAYS * DAY_MS),
      transactionFromDateTime: null,
      transactionToDateTime: null,
      purpose: null,
      fetchesPerDay: 4,
      fetchesInWindow: 0,
      windowStartedAt: null,
      creationDateTime: NOW,
      statusUpdateDateTime: NOW,
      accessToken: null,
      refreshToken: null,
    });
    expect(DEFAULT_CONSENT_DAYS).toBe(90);
    expect(asked.consentId).toMatch(/^sbk-intent-[0-9a-f]{20}$/);
    expect((await ask()).consentId).not.toBe(asked.consentId);
    expect(await row(asked.consentId)).toEqual(asked);
  });

  it('keeps the expiry, period, purpose and reads a day named, and a back-dated creation', async () => {
    const createdAt = new Date(NOW.getTime() - 5 * DAY_MS);
    const terms = {
      expirationDateTime: new Date('2026-09-01T00:00:00.000Z'),
      transactionFromDateTime: new Date('2026-01-01T00:00:00.000Z'),
      transactionToDateTime: new Date('2026-05-01T00:00:00.000Z'),
      purpose: 'Reconciling the books',
      fetchesPerDay: 7,
    };
    expect(await ask({ ...terms, createdAt })).toMatchObject({
      ...terms,
      creationDateTime: createdAt,
      statusUpdateDateTime: createdAt,
    });
  });

  it('refuses an expiry that is not in the future, and a period that ends before it starts', async () => {
    expect(await refusal(ask({ expirationDateTime: NOW }))).toEqual({
      status: 400,
      message: 'ExpirationDateTime must be in the future',
    });
    const soonest = await ask({ expirationDateTime: new Date(NOW.getTime() + 1) });
    expect(soonest.status).toBe('AwaitingAuthorisation');
    const at = new Date('2026-01-01T00:00:00.000Z');
    for (const to of [at, new Date(at.getTime() - 1)]) {
      expect(
        await refusal(ask({ transactionFromDateTime: at, transactionToDateTime: to })),
      ).toEqual({
        status: 400,
        message: 'TransactionFromDateTime must be before TransactionToDateTime',
      });
    }
    const shortest = await ask({
      transactionFromDateTime: at,
      transactionToDateTime: new Date(at.getTime() + 1),
    });
    expect(shortest.transactionToDateTime).toEqual(new Date(at.getTime() + 1));
  });
});

describe('consent ids', () => {
  it('are letters, digits, dots, dashes and underscores, up to 200; anything else names nothing', async () => {
    expect(isBankConsentId('sbk-intent-ab.C_9')).toBe(true);
    expect(isBankConsentId('a'.repeat(200))).toBe(true);
    for (const id of ['', 'a'.repeat(201), 'sbk intent', 'sbk/intent', 'x\u0000y', 'é']) {
      expect(isBankConsentId(id), JSON.stringify(id)).toBe(false);
      expect(await findBankConsent(db(), id)).toBeNull();
    }
    expect(await findBankConsent(db(), 'sbk-intent-unknown')).toBeNull();
  });
});

describe("the customer's decision", () => {
  it('authorises with a day-long access token and a refresh token that lasts as the consent', async () => {
    const asked = await ask();
    const at = new Date(NOW.getTime() + 60_000);
    const done = await authoriseBankConsent(db(), clock, asked.consentId, { at });
    expect(done).toMatchObject({
      status: 'Authorised',
      statusUpdateDateTime: at,
      accessTokenExpiresAt: new Date(at.getTime() + ACCESS_TOKEN_TTL_MS),
      refreshTokenExpiresAt: asked.expirationDateTime,
    });
    expect(ACCESS_TOKEN_TTL_MS).toBe(DAY_MS);
    expect(done.accessToken).toMatch(/^sbk_at_[A-Za-z0-9_-]{64}$/);
    expect(done.refreshToken).toMatch(/^sbk_rt_[A-Za-z0-9_-]{64}$/);
    expect(await row(asked.consentId)).toEqual(done);
  });

  it('ends the access token with the consent when the consent ends within the day', async () => {
    const expirationDateTime = new Date(NOW.getTime() + 3_600_000);
    const done = await authorised({ expirationDateTime });
    expect(done.statusUpdateDateTime).toEqual(NOW);
    expect(done.accessTokenExpiresAt).toEqual(expirationDateTime);
  });

  it('rejects, and issues no token', async () => {
    const asked = await ask();
    clock.advance(1000);
    const done = await rejectBankConsent(db(), clock, asked.consentId);
    expect(done).toMatchObject({
      status: 'Rejected',
      statusUpdateDateTime: clock.now(),
      accessToken: null,
      refreshToken: null,
    });
    const at = new Date(NOW.getTime() + 5000);
    const other = await ask();
    expect(await rejectBankConsent(db(), clock, other.consentId, { at })).toMatchObject({
      statusUpdateDateTime: at,
    });
  });

  it('refuses a consent that is unknown, already decided, or past its expiry', async () => {
    const decide = [authoriseBankConsent, rejectBankConsent];
    for (const step of decide) {
      expect(await refusal(step(db(), clock, 'sbk-intent-none'))).toEqual({
        status: 404,
        message: 'No consent sbk-intent-none at the sandbox bank',
      });
      const done = await authorised();
      expect(await refusal(step(db(), clock, done.consentId))).toEqual({
        status: 409,
        message: `Consent ${done.consentId} is already Authorised`,
      });
      const ending = await ask({ expirationDateTime: new Date(NOW.getTime() + 1000) });
      expect(
        await refusal(step(db(), clock, ending.consentId, { at: ending.expirationDateTime })),
      ).toEqual({ status: 409, message: `Consent ${ending.consentId} has passed its expiry time` });
      expect((await row(ending.consentId)).status).toBe('AwaitingAuthorisation');
      const lastMoment = new Date(ending.expirationDateTime.getTime() - 1);
      expect((await step(db(), clock, ending.consentId, { at: lastMoment })).status).not.toBe(
        'AwaitingAuthorisation',
      );
    }
  });

  it('lets one of two decisions made at once land, and refuses the other', async () => {
    const asked = await ask();
    const outcomes = await Promise.allSettled([
      authoriseBankConsent(db(), clock, asked.consentId),
      rejectBankConsent(db(), clock, asked.consentId),
    ]);
    const landed = outcomes.filter((o) => o.status === 'fulfilled');
    expect(landed).toHaveLength(1);
    const [refused] = outcomes.filter((o) => o.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({
      status: 409,
      message: expect.stringMatching(
        new RegExp(`^Consent ${asked.consentId} (was decided meanwhile|is already \\w+)$`),
      ),
    });
    const { value } = landed[0] as PromiseFulfilledResult<{ status: string }>;
    expect((await row(asked.consentId)).status).toBe(value.status);
  });
});

describe("the client's withdrawal", () => {
  it('revokes an authorised or awaiting consent, its tokens with it, and changes nothing on repeat', async () => {
    const done = await authorised();
    const at = new Date(NOW.getTime() + 60_000);
    await revokeBankConsent(db(), clock, done.consentId, { at });
    expect(await row(done.consentId)).toMatchObject({
      status: 'Revoked',
      statusUpdateDateTime: at,
      accessToken: null,
      accessTokenExpiresAt: null,
      refreshToken: null,
      refreshTokenExpiresAt: null,
    });
    await revokeBankConsent(db(), clock, done.consentId);
    expect((await row(done.consentId)).statusUpdateDateTime).toEqual(at);

    const waiting = await ask();
    clock.advance(2000);
    await revokeBankConsent(db(), clock, waiting.consentId);
    expect(await row(waiting.consentId)).toMatchObject({
      status: 'Revoked',
      statusUpdateDateTime: clock.now(),
    });
  });

  it('leaves a rejected consent rejected, and refuses an unknown one', async () => {
    const asked = await ask();
    const rejected = await rejectBankConsent(db(), clock, asked.consentId);
    clock.advance(1000);
    await revokeBankConsent(db(), clock, asked.consentId);
    expect(await row(asked.consentId)).toEqual(rejected);
    expect(await refusal(revokeBankConsent(db(), clock, 'sbk-intent-none'))).toEqual({
      status: 404,
      message: 'No consent sbk-intent-none at the sandbox bank',
    });
  });
});

describe('a read under a consent', () => {
  const read = (
    consentId: string,
    resource: 'accounts' | 'transactions' = 'accounts',
    bounds: { from?: Date; to?: Date } = {},
  ) => readAtBank(db(), clock, { consentId, resource, ...bounds });

  it('is refused while the consent awaits, once it is rejected or revoked, and from its expiry on', async () => {
    const waiting = await ask();
    expect((await read(waiting.consentId)).outcome).toBe('NotAuthorised');
    const rejected = await ask();
    await rejectBankConsent(db(), clock, rejected.consentId);
    expect((await read(rejected.consentId)).outcome).toBe('NotAuthorised');
    const revoked = await authorised();
    await revokeBankConsent(db(), clock, revoked.consentId);
    expect((await read(revoked.consentId)).outcome).toBe('NotAuthorised');

    const ending = await authorised({ expirationDateTime: new Date(NOW.getTime() + 1000) });
    clock.set(new Date(ending.expirationDateTime.getTime() - 1));
    expect((await read(ending.consentId)).outcome).toBe('Allowed');
    clock.set(ending.expirationDateTime);
    expect((await read(ending.consentId)).outcome).toBe('Expired');
  });

  it('needs one of the permissions of what it reads', async () => {
    for (const permission of ['ReadAccountsBasic', 'ReadAccountsDetail']) {
      const consent = await authorised({ permissions: [permission] });
      expect((await read(consent.consentId, 'accounts')).outcome).toBe('Allowed');
      expect((await read(consent.consentId, 'transactions')).outcome).toBe('PermissionMissing');
    }
    for (const permission of [
      'ReadTransactionsBasic',
      'ReadTransactionsDetail',
      'ReadTransactionsCredits',
      'ReadTransactionsDebits',
    ]) {
      const consent = await authorised({ permissions: [permission] });
      expect((await read(consent.consentId, 'transactions')).outcome, permission).toBe('Allowed');
      expect((await read(consent.consentId, 'accounts')).outcome).toBe('PermissionMissing');
    }
  });

  it('reads transactions of the period asked for, else of the consent, else the 90 days to now', async () => {
    const open = await authorised();
    expect((await read(open.consentId, 'transactions')).period).toEqual({
      from: new Date(NOW.getTime() - 90 * DAY_MS),
      to: NOW,
    });
    const from = new Date('2026-02-01T00:00:00.000Z');
    const to = new Date('2026-03-01T00:00:00.000Z');
    expect((await read(open.consentId, 'transactions', { to })).period).toEqual({
      from: new Date(to.getTime() - 90 * DAY_MS),
      to,
    });
    expect((await read(open.consentId, 'accounts', { from, to })).period).toBeNull();

    const bounded = await authorised({
      transactionFromDateTime: from,
      transactionToDateTime: to,
      fetchesPerDay: 10,
    });
    const whole = await read(bounded.consentId, 'transactions');
    expect(whole).toMatchObject({ outcome: 'Allowed', period: { from, to } });
    const inside = { from: new Date(from.getTime() + DAY_MS), to: new Date(to.getTime() - DAY_MS) };
    expect(await read(bounded.consentId, 'transactions', inside)).toMatchObject({
      outcome: 'Allowed',
      period: inside,
    });
    const earlier = { from: new Date(from.getTime() - 1) };
    expect((await read(bounded.consentId, 'transactions', earlier)).outcome).toBe('OutsidePeriod');
    const later = { to: new Date(to.getTime() + 1) };
    expect((await read(bounded.consentId, 'transactions', later)).outcome).toBe('OutsidePeriod');
    // an end asked for at the consent's start makes an empty period
    expect((await read(bounded.consentId, 'transactions', { to: from })).outcome).toBe(
      'OutsidePeriod',
    );
    // a start asked for after the consent's end makes an empty period
    const after = { from: new Date(to.getTime() + DAY_MS) };
    expect((await read(bounded.consentId, 'transactions', after)).outcome).toBe('OutsidePeriod');
    // what a period outside the consent is never checked against: accounts
    expect((await read(bounded.consentId, 'accounts', earlier)).outcome).toBe('Allowed');
  });

  it('refuses a period asked for that ends before it starts, and records nothing', async () => {
    const consent = await authorised();
    const at = new Date('2026-02-01T00:00:00.000Z');
    for (const to of [at, new Date(at.getTime() - 1)]) {
      expect(await refusal(read(consent.consentId, 'transactions', { from: at, to }))).toEqual({
        status: 400,
        message: 'fromBookingDateTime must be before toBookingDateTime',
      });
    }
    expect(await accessesOf(consent.consentId)).toEqual([]);
    expect(await refusal(read('sbk-intent-none'))).toEqual({
      status: 404,
      message: 'No consent sbk-intent-none at the sandbox bank',
    });
  });

  it('allows the reads a day the consent names, for 24 hours from the first, then a new day', async () => {
    const consent = await authorised({ fetchesPerDay: 2 });
    const first = await read(consent.consentId);
    expect(first).toMatchObject({ outcome: 'Allowed', fetchesLeftToday: 1, accessedAt: NOW });
    expect(first.consent).toMatchObject({ windowStartedAt: NOW, fetchesInWindow: 1 });
    clock.advance(3_600_000);
    const second = await read(consent.consentId);
    expect(second).toMatchObject({ outcome: 'Allowed', fetchesLeftToday: 0 });
    expect(second.consent).toMatchObject({ windowStartedAt: NOW, fetchesInWindow: 2 });
    clock.set(new Date(NOW.getTime() + DAY_MS - 1));
    const third = await read(consent.consentId);
    expect(third).toMatchObject({ outcome: 'FrequencyExceeded', fetchesLeftToday: 0 });
    expect(third.consent.fetchesInWindow).toBe(2);

    clock.set(new Date(NOW.getTime() + DAY_MS));
    const nextDay = await read(consent.consentId);
    expect(nextDay).toMatchObject({ outcome: 'Allowed', fetchesLeftToday: 1 });
    expect(nextDay.consent).toMatchObject({ windowStartedAt: clock.now(), fetchesInWindow: 1 });
  });

  it('does not count a refused read against the day', async () => {
    const consent = await authorised({ permissions: ACCOUNTS, fetchesPerDay: 1 });
    const refused = await read(consent.consentId, 'transactions');
    expect(refused).toMatchObject({ outcome: 'PermissionMissing', fetchesLeftToday: 1 });
    expect(refused.consent).toMatchObject({ windowStartedAt: null, fetchesInWindow: 0 });
    expect((await read(consent.consentId)).outcome).toBe('Allowed');
  });

  it('is recorded with its outcome, time and period, allowed or refused', async () => {
    const consent = await authorised({ permissions: ACCOUNTS });
    const allowed = await read(consent.consentId);
    clock.advance(1000);
    const from = new Date('2026-02-01T00:00:00.000Z');
    const to = new Date('2026-03-01T00:00:00.000Z');
    const refused = await read(consent.consentId, 'transactions', { from, to });
    expect(
      (await accessesOf(consent.consentId)).sort((a, b) => +a.accessedAt - +b.accessedAt),
    ).toEqual([
      {
        id: allowed.accessId,
        consentId: consent.consentId,
        accessedAt: NOW,
        resource: 'accounts',
        fromDateTime: null,
        toDateTime: null,
        outcome: 'Allowed',
      },
      {
        id: refused.accessId,
        consentId: consent.consentId,
        accessedAt: clock.now(),
        resource: 'transactions',
        fromDateTime: from,
        toDateTime: to,
        outcome: 'PermissionMissing',
      },
    ]);
  });
});

describe('what the sandbox page shows of the reads', () => {
  it('counts the allowed and refused reads of each consent, with the last allowed', async () => {
    expect(await summariseBankReads(db(), [])).toEqual(new Map());
    const busy = await authorised({ fetchesPerDay: 1 });
    const refusedOnly = await ask();
    const unread = await authorised();
    await readAtBank(db(), clock, { consentId: busy.consentId, resource: 'accounts' });
    clock.advance(1000);
    await readAtBank(db(), clock, { consentId: busy.consentId, resource: 'accounts' });
    await readAtBank(db(), clock, { consentId: busy.consentId, resource: 'accounts' });
    await readAtBank(db(), clock, { consentId: refusedOnly.consentId, resource: 'accounts' });
    const summaries = await summariseBankReads(db(), [
      busy.consentId,
      refusedOnly.consentId,
      unread.consentId,
    ]);
    expect(summaries).toEqual(
      new Map([
        [busy.consentId, { allowed: 1, refused: 2, lastAllowedAt: NOW }],
        [refusedOnly.consentId, { allowed: 0, refused: 1, lastAllowedAt: null }],
      ]),
    );
  });

  it('lists the newest consents first, as many as asked', async () => {
    const older = await ask({ createdAt: new Date('2030-01-01T00:00:00.000Z') });
    const newer = await ask({ createdAt: new Date('2030-01-02T00:00:00.000Z') });
    expect((await listBankConsents(db(), 2)).map((c) => c.consentId)).toEqual([
      newer.consentId,
      older.consentId,
    ]);
    for (let i = 0; i < 100; i++) await ask({ createdAt: new Date('2029-01-01T00:00:00.000Z') });
    expect((await db().select().from(sandboxBankConsents)).length).toBeGreaterThan(100);
    expect(await listBankConsents(db())).toHaveLength(100);
  });
});

describe('the transactions the sandbox bank invents', () => {
  const from = new Date('2026-02-01T06:30:00.000Z');

  it('books one a day at noon in India, from the first noon in the period to its end', () => {
    const days = sandboxTransactions('sbk-intent-a', {
      from,
      to: new Date('2026-02-04T06:30:00.000Z'),
    });
    expect(days.map((d) => d.BookingDateTime)).toEqual([
      '2026-02-01T06:30:00.000Z',
      '2026-02-02T06:30:00.000Z',
      '2026-02-03T06:30:00.000Z',
      '2026-02-04T06:30:00.000Z',
    ]);
    const afterNoon = sandboxTransactions('sbk-intent-a', {
      from: new Date(from.getTime() + 1),
      to: new Date('2026-02-03T06:29:59.999Z'),
    });
    expect(afterNoon.map((d) => d.BookingDateTime)).toEqual(['2026-02-02T06:30:00.000Z']);
    const beforeNoon = sandboxTransactions('sbk-intent-a', {
      from: new Date('2026-02-01T00:00:00.000Z'),
      to: from,
    });
    expect(beforeNoon.map((d) => d.BookingDateTime)).toEqual(['2026-02-01T06:30:00.000Z']);
  });

  it('are the same every time for a consent, differ between consents, and stop at the limit', () => {
    const to = new Date('2026-12-31T00:00:00.000Z');
    const once = sandboxTransactions('sbk-intent-a', { from, to });
    expect(once).toHaveLength(333);
    expect(sandboxTransactions('sbk-intent-a', { from, to })).toEqual(once);
    expect(sandboxTransactions('sbk-intent-b', { from, to })[0]).not.toEqual(once[0]);
    expect(sandboxTransactions('sbk-intent-a', { from, to }, 3)).toEqual(once.slice(0, 3));
    const long = sandboxTransactions('sbk-intent-a', { from, to: new Date('2028-01-01') });
    expect(long).toHaveLength(400);
    for (const t of once) {
      expect(t.TransactionId).toMatch(/^[0-9a-f]{24}$/);
      expect(t.Amount.Currency).toBe('INR');
      expect(t.Amount.Amount).toMatch(/^\d{1,5}\.\d{2}$/);
      expect(Number(t.Amount.Amount)).toBeLessThan(50_000);
      expect([
        ['Credit', 'NEFT receipt'],
        ['Debit', 'UPI payment'],
      ]).toContainEqual([t.CreditDebitIndicator, t.TransactionInformation]);
    }
    expect(new Set(once.map((t) => t.CreditDebitIndicator))).toEqual(new Set(['Credit', 'Debit']));
    expect(new Set(once.map((t) => t.TransactionId)).size).toBe(once.length);
  });

  it('are pinned for one consent and day', () => {
    const [first] = sandboxTransactions('sbk-intent-a', { from, to: from });
    expect(first).toEqual({
      TransactionId: '66080d1d0363b105b9df96a6',
      BookingDateTime: '2026-02-01T06:30:00.000Z',
      CreditDebitIndicator: 'Debit',
      Amount: { Amount: '37803.93', Currency: 'INR' },
      TransactionInformation: 'UPI payment',
    });
  });
});
