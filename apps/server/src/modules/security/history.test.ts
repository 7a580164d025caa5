import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SIGN_IN_HISTORY_DAYS,
  SIGN_IN_HISTORY_PAGE_SIZE,
  authPaths,
  securityPaths,
  type SignInEvent,
} from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { auditOf } from '../../test/audit';
import { bearer, freshIp, latestCode, wrongCode } from '../../test/auth';
import { startSession } from '../auth/sessions';
import { recordSignInAttempt, SIGN_IN_HISTORY_MS } from '../auth/sign-in-record';
import { sessionDevices, signInEvents } from './schema';
import { CHROME_ON_WINDOWS, SAFARI_ON_IPHONE, passwordStep, signInFrom } from '../../test/security';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const history = (headers: Record<string, string>, query = '') =>
  t.app.inject({ method: 'GET', url: `${securityPaths.signIns}${query}`, headers });

const lastSignIn = (token: string) =>
  t.app.inject({ method: 'GET', url: securityPaths.lastSignIn, headers: bearer(token) });

describe('GET /api/security/sign-ins', () => {
  it('lists successes and refused passwords and codes with device and address, newest first', async () => {
    const customer = await createCustomer(t);
    const [attackerIp, phoneIp, homeIp] = [freshIp(), freshIp(), freshIp()];
    const wrongPassword = await passwordStep(
      t,
      customer,
      { userAgent: SAFARI_ON_IPHONE, ip: attackerIp },
      { password: 'Wrong@12345' },
    );
    expect(wrongPassword.statusCode).toBe(401);
    const wrongPasswordAt = t.clock.now();
    t.clock.advance(60_000);

    const first = await passwordStep(t, customer, { userAgent: SAFARI_ON_IPHONE, ip: phoneIp });
    const refused = await t.app.inject({
      method: 'POST',
      url: authPaths.verify2fa,
      headers: { 'user-agent': SAFARI_ON_IPHONE },
      payload: {
        tempToken: first.json().tempToken,
        verificationCode: wrongCode(await latestCode(t)),
      },
      remoteAddress: phoneIp,
    });
    expect(refused.statusCode).toBe(400);
    const wrongCodeAt = t.clock.now();
    t.clock.advance(60_000);

    const { token } = await signInFrom(t, customer, { userAgent: CHROME_ON_WINDOWS, ip: homeIp });
    const signedInAt = t.clock.now();

    const res = await history(bearer(token));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.nextCursor).toBeNull();
    expect(body.data.map(({ _id, ...rest }: SignInEvent) => rest)).toEqual([
      {
        at: signedInAt.toISOString(),
        outcome: 'success',
        browser: 'Chrome on Windows',
        device: 'desktop',
        ip: homeIp,
      },
      {
        at: wrongCodeAt.toISOString(),
        outcome: 'wrong_code',
        browser: 'Safari on iOS',
        device: 'phone',
        ip: phoneIp,
      },
      {
        at: wrongPasswordAt.toISOString(),
        outcome: 'wrong_password',
        browser: 'Safari on iOS',
        device: 'phone',
        ip: attackerIp,
      },
    ]);
  });

  it('records nothing for an address that has no account', async () => {
    const customer = await createCustomer(t);
    const before = await t.deps.db.select().from(signInEvents);
    const res = await passwordStep(
      t,
      { ...customer, email: `nobody-${crypto.randomUUID()}@example.test` },
      { userAgent: CHROME_ON_WINDOWS, ip: freshIp() },
    );
    expect(res.statusCode).toBe(401);
    expect(await t.deps.db.select().from(signInEvents)).toHaveLength(before.length);
  });

  it('pages by keyset: every entry once, in order, however many are added meanwhile', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const record = (ip: string) =>
      recordSignInAttempt(t.deps.db, t.clock, {
        customerId: customer.id,
        outcome: 'wrong_password',
        client: { ip, userAgent: CHROME_ON_WINDOWS },
      });
    for (let i = 1; i <= 5; i += 1) await record(`192.0.2.${i}`);

    const firstPage = (await history(headers, '?limit=2')).json();
    expect(firstPage.data.map((e: SignInEvent) => e.ip)).toEqual(['192.0.2.5', '192.0.2.4']);
    // an attempt recorded between two pages does not shift the next one
    await record('192.0.2.6');
    const second = (await history(headers, `?limit=2&cursor=${firstPage.nextCursor}`)).json();
    expect(second.data.map((e: SignInEvent) => e.ip)).toEqual(['192.0.2.3', '192.0.2.2']);
    const last = (await history(headers, `?limit=2&cursor=${second.nextCursor}`)).json();
    expect(last.data.map((e: SignInEvent) => e.ip)).toEqual(['192.0.2.1']);
    expect(last.nextCursor).toBeNull();

    // a page exactly full has no next page
    const all = (await history(headers, '?limit=6')).json();
    expect(all.data).toHaveLength(6);
    expect(all.nextCursor).toBeNull();
  });

  it('carries on, page after page of any size, from the last entry the page before showed', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    for (let i = 1; i <= 7; i += 1) {
      await recordSignInAttempt(t.deps.db, t.clock, {
        customerId: customer.id,
        outcome: 'wrong_code',
        client: { ip: `192.0.2.${i}`, userAgent: CHROME_ON_WINDOWS },
      });
    }
    const ips = (page: { data: SignInEvent[] }) => page.data.map((e) => e.ip);

    const first = (await history(headers, '?limit=3')).json();
    expect(ips(first)).toEqual(['192.0.2.7', '192.0.2.6', '192.0.2.5']);
    // the cursor names the last entry shown, not one before it
    expect(first.nextCursor).toBe(first.data[2]._id);
    const second = (await history(headers, `?limit=3&cursor=${first.nextCursor}`)).json();
    expect(ips(second)).toEqual(['192.0.2.4', '192.0.2.3', '192.0.2.2']);
    const last = (await history(headers, `?limit=3&cursor=${second.nextCursor}`)).json();
    expect(ips(last)).toEqual(['192.0.2.1']);
    expect(last.nextCursor).toBeNull();
  });

  it('answers pages of 20 unless asked otherwise', async () => {
    const customer = await createCustomer(t);
    for (let i = 0; i <= SIGN_IN_HISTORY_PAGE_SIZE; i += 1) {
      await recordSignInAttempt(t.deps.db, t.clock, {
        customerId: customer.id,
        outcome: 'wrong_code',
        client: { ip: '192.0.2.1', userAgent: undefined },
      });
    }
    const page = (await history(await authHeaders(t, customer.id))).json();
    expect(page.data).toHaveLength(20);
    expect(page.data[0]).toMatchObject({
      browser: 'An unknown browser on an unknown system',
      device: 'unknown',
    });
    expect(page.nextCursor).not.toBeNull();
  });

  it(`keeps ${SIGN_IN_HISTORY_DAYS} days: older entries are neither listed nor kept`, async () => {
    const customer = await createCustomer(t);
    const record = () =>
      recordSignInAttempt(t.deps.db, t.clock, {
        customerId: customer.id,
        outcome: 'wrong_password',
        client: { ip: '192.0.2.7', userAgent: CHROME_ON_WINDOWS },
      });
    const stored = () =>
      t.deps.db.select().from(signInEvents).where(eq(signInEvents.customerId, customer.id));
    expect(SIGN_IN_HISTORY_MS).toBe(90 * 86_400_000);
    await record();
    t.clock.advance(SIGN_IN_HISTORY_MS - 1);
    await record();
    expect(await stored()).toHaveLength(2);
    const headers = await authHeaders(t, customer.id);
    expect((await history(headers)).json().data).toHaveLength(2);

    t.clock.advance(1);
    // past its age an entry is no longer shown, and the next one recorded takes it away
    expect((await history(headers)).json().data).toHaveLength(1);
    expect(await stored()).toHaveLength(2);
    await record();
    expect(await stored()).toHaveLength(2);
    expect((await history(headers)).json().data).toHaveLength(2);
  });

  it("never lists another customer's entries", async () => {
    const [customer, other] = [await createCustomer(t), await createCustomer(t)];
    await signInFrom(t, other, { userAgent: CHROME_ON_WINDOWS, ip: freshIp() });
    const res = await history(await authHeaders(t, customer.id));
    expect(res.json().data).toEqual([]);
  });

  it('answers 400 for a cursor or a limit it did not give, and 401 without a session', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    // a cursor of a length the query allows, yet never given: the answer says what a cursor is
    for (const cursor of ['abc', '0', '-1', '1.5', '9'.repeat(16)]) {
      const res = await history(headers, `?cursor=${cursor}`);
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json(), cursor).toEqual({
        success: false,
        message: 'cursor: must be the nextCursor of an earlier page',
        error: 'validation',
      });
    }
    for (const query of [`?cursor=${'9'.repeat(21)}`, '?limit=0', '?limit=101', '?limit=ten']) {
      const res = await history(headers, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().success, query).toBe(false);
    }
    expect((await history(headers, '?limit=100')).statusCode).toBe(200);
    expect((await history(headers, `?cursor=${'9'.repeat(15)}`)).statusCode).toBe(200);
    expect((await history({})).statusCode).toBe(401);
  });
});

describe('the record of a sign-in attempt', () => {
  it('logs each sign-in and refused attempt for the auditor: its outcome, and its session or why it was refused', async () => {
    const customer = await createCustomer(t);
    const ip = '203.0.113.58';
    const from = { userAgent: CHROME_ON_WINDOWS, ip };
    expect((await passwordStep(t, customer, from, { password: 'Wrong@12345' })).statusCode).toBe(
      401,
    );
    const first = await passwordStep(t, customer, from);
    const refused = await t.app.inject({
      method: 'POST',
      url: authPaths.verify2fa,
      headers: { 'user-agent': CHROME_ON_WINDOWS },
      payload: {
        tempToken: first.json().tempToken,
        verificationCode: wrongCode(await latestCode(t)),
      },
      remoteAddress: ip,
    });
    expect(refused.statusCode).toBe(400);
    const { sessionId } = await signInFrom(t, customer, from);

    const signIn = (outcome: string, details: Record<string, string>) => ({
      actorKind: 'customer',
      actorId: customer.id,
      customerId: customer.id,
      action: 'sign_in',
      outcome,
      clientNetwork: '203.0.113.0/24',
      details,
    });
    expect(await auditOf(t, customer.id)).toEqual([
      signIn('failure', { reason: 'wrong_password' }),
      signIn('failure', { reason: 'wrong_code' }),
      signIn('success', { sessionId }),
    ]);
  });

  it('keeps an empty User-Agent for a browser that sends none, which the history shows as unknown', async () => {
    const customer = await createCustomer(t);
    const ip = freshIp();
    const { sessionId } = await startSession(t.deps.db, t.clock, customer.id, false, {
      ip,
      userAgent: undefined,
    });
    const [event] = await t.deps.db
      .select()
      .from(signInEvents)
      .where(eq(signInEvents.customerId, customer.id));
    expect(event).toMatchObject({ sessionId, outcome: 'success', userAgent: '', ip });
    const [device] = await t.deps.db
      .select()
      .from(sessionDevices)
      .where(eq(sessionDevices.sessionId, sessionId));
    expect(device).toMatchObject({ userAgent: '', ip });
    const page = (await history(await authHeaders(t, customer.id))).json();
    expect(page.data.map(({ _id, ...rest }: SignInEvent) => rest)).toEqual([
      {
        at: t.clock.now().toISOString(),
        outcome: 'success',
        browser: 'An unknown browser on an unknown system',
        device: 'unknown',
        ip,
      },
    ]);
  });
});

describe('GET /api/security/last-sign-in', () => {
  it('is null on the first sign-in, then the sign-in before this session’s', async () => {
    const customer = await createCustomer(t);
    const first = await signInFrom(t, customer, { userAgent: SAFARI_ON_IPHONE, ip: freshIp() });
    const firstAt = t.clock.now();
    expect((await lastSignIn(first.token)).json()).toEqual({ success: true, data: null });

    // within the idle limit, so that the first session still stands
    t.clock.advance(10 * 60_000);
    // a refused attempt is no sign-in
    await passwordStep(
      t,
      customer,
      { userAgent: CHROME_ON_WINDOWS, ip: freshIp() },
      { password: 'Wrong@12345' },
    );
    const second = await signInFrom(t, customer, { userAgent: CHROME_ON_WINDOWS, ip: freshIp() });
    const secondAt = t.clock.now();
    expect((await lastSignIn(second.token)).json()).toEqual({
      success: true,
      data: { at: firstAt.toISOString(), browser: 'Safari on iOS' },
    });
    // the first session sees the later sign-in elsewhere
    expect((await lastSignIn(first.token)).json().data).toEqual({
      at: secondAt.toISOString(),
      browser: 'Chrome on Windows',
    });
  });

  it("never answers another customer's sign-in, and 401 without a session", async () => {
    const [customer, other] = [await createCustomer(t), await createCustomer(t)];
    await signInFrom(t, other, { userAgent: CHROME_ON_WINDOWS, ip: freshIp() });
    const { token } = await signInFrom(t, customer, {
      userAgent: CHROME_ON_WINDOWS,
      ip: freshIp(),
    });
    expect((await lastSignIn(token)).json().data).toBeNull();
    const res = await t.app.inject({ method: 'GET', url: securityPaths.lastSignIn });
    expect(res.statusCode).toBe(401);
  });
});
