import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../test/app';
import { authHeaders, createCustomer } from '../test/customers';
import {
  accountThrottles,
  loginChallenges,
  passwordResetTokens,
  rateLimitWindows,
  refreshTokens,
  sessions,
} from '../modules/auth/schema';
import {
  bearer,
  latestCode,
  login,
  loginBody,
  refresh,
  refreshCookieOf,
  signIn,
  verify,
  waitForMailCount,
} from '../test/auth';
import { REFRESH_COOKIE } from '../modules/auth/routes';
import { passkeyChallenges } from '../modules/passkeys/schema';
import { registrationOptionsFor } from '../test/passkeys';
import { purgeExpiredAuth, type PurgeCounts } from './purge-expired-auth';

// a fresh database for each test, so that the counts are exactly this test's records
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const minute = 60_000;
const hour = 60 * minute;
const none: PurgeCounts = {
  loginChallenges: 0,
  passkeyChallenges: 0,
  sessions: 0,
  refreshTokens: 0,
  passwordResetTokens: 0,
  rateLimitWindows: 0,
  accountThrottles: 0,
};

const purge = () => purgeExpiredAuth(t.deps);

const profile = (token: string) =>
  t.app.inject({ method: 'GET', url: authPaths.profile, headers: bearer(token) });

const logout = (refreshToken: string) =>
  t.app.inject({
    method: 'POST',
    url: authPaths.logout,
    headers: { cookie: `${REFRESH_COOKIE}=${refreshToken}` },
  });

const resend = (tempToken: string) =>
  t.app.inject({ method: 'POST', url: authPaths.resendVerification, payload: { tempToken } });

const forgot = (email: string, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: authPaths.forgotPassword,
    payload: { email },
    remoteAddress: ip,
  });

type Customer = Awaited<ReturnType<typeof createCustomer>>;

async function failLogin(customer: Customer, ip: string) {
  const res = await login(t, loginBody(customer, { password: 'Wrong@123' }), ip);
  expect(res.statusCode).toBe(401);
}

/** What is left in each table, by the values that name the rows. */
async function remaining() {
  const db = t.deps.db;
  const ids = <T>(rows: { id: T }[]) => rows.map((r) => r.id).sort();
  return {
    loginChallenges: ids(await db.select({ id: loginChallenges.id }).from(loginChallenges)),
    sessions: ids(await db.select({ id: sessions.customerId }).from(sessions)),
    refreshTokens: (await db.select().from(refreshTokens)).length,
    passwordResetTokens: (await db.select().from(passwordResetTokens)).length,
    rateLimitWindows: ids(await db.select({ id: rateLimitWindows.key }).from(rateLimitWindows)),
    accountThrottles: ids(await db.select({ id: accountThrottles.email }).from(accountThrottles)),
  };
}

describe('purgeExpiredAuth', () => {
  it('deletes what stopped working over a day ago and keeps everything still in use', async () => {
    // day one: records that will all stop working within the next half hour…
    const loggedOut = await createCustomer(t);
    const loggedOutSession = await signIn(t, loggedOut);
    expect((await logout(loggedOutSession.refreshToken)).statusCode).toBe(200);

    const idle = await createCustomer(t);
    const idleSession = await signIn(t, idle);
    expect((await refresh(t, idleSession.refreshToken)).statusCode).toBe(200);

    const abandoned = await createCustomer(t);
    const pending = await login(t, loginBody(abandoned), '10.99.0.9');
    t.clock.advance(minute + 1_000);
    expect((await resend(pending.json().tempToken)).statusCode).toBe(200);

    const forgetful = await createCustomer(t);
    expect((await forgot(forgetful.email, '10.99.0.2')).statusCode).toBe(200);
    await waitForMailCount(t, 5);
    t.clock.advance(minute + 1_000);
    // the newer link voids the first one
    expect((await forgot(forgetful.email, '10.99.0.2')).statusCode).toBe(200);
    await waitForMailCount(t, 6);

    // …a failure count a completed sign-in set back to zero…
    const recovered = await createCustomer(t);
    await failLogin(recovered, '10.99.0.1');
    await failLogin(recovered, '10.99.0.1');
    await signIn(t, recovered);

    // …failures that still count towards the hard lock…
    const guessedAt = await createCustomer(t);
    for (let i = 0; i < 3; i += 1) await failLogin(guessedAt, '10.99.0.1');

    // …and a hard lock, reached while a code was on its way: the sign-in completes and sets
    // the count back to zero, but only a password reset lifts the lock
    const locked = await createCustomer(t);
    const before = await login(t, loginBody(locked), '10.99.0.8');
    const lockedCode = await latestCode(t);
    await failLogin(locked, '10.99.0.1');
    await t.deps.db
      .update(accountThrottles)
      .set({ consecutiveFailures: 99 })
      .where(eq(accountThrottles.email, locked.email));
    await failLogin(locked, '10.99.0.1');
    const lockedSignIn = await verify(t, before.json().tempToken, lockedCode, '10.99.0.8');
    expect(lockedSignIn.statusCode).toBe(200);
    const [lockedRow] = await t.deps.db
      .select()
      .from(accountThrottles)
      .where(eq(accountThrottles.email, locked.email));
    expect(lockedRow).toMatchObject({ consecutiveFailures: 0, lockedAt: expect.any(Date) });

    // within a day of the last of them stopping to work, nothing goes
    t.clock.advance(23 * hour);
    expect(await purge()).toEqual(none);

    // a day and a half hour later, on day two: records in use now
    t.clock.advance(2 * hour);
    const active = await createCustomer(t);
    const activeSession = await signIn(t, active);
    t.clock.advance(minute);
    const refreshed = await refresh(t, activeSession.refreshToken);
    expect(refreshed.statusCode).toBe(200);
    const current = refreshCookieOf(refreshed)!.value;

    const waiting = await createCustomer(t);
    const fresh = await login(t, loginBody(waiting), '10.99.0.7');
    expect(fresh.statusCode).toBe(200);

    const mistyped = await createCustomer(t);
    await failLogin(mistyped, '10.99.0.3');

    const [activeChallenge] = await t.deps.db
      .select({ id: loginChallenges.id })
      .from(loginChallenges)
      .where(eq(loginChallenges.customerId, active.id));
    const [waitingChallenge] = await t.deps.db
      .select({ id: loginChallenges.id })
      .from(loginChallenges)
      .where(eq(loginChallenges.customerId, waiting.id));

    expect(await purge()).toEqual({
      // logged out, idle, abandoned, recovered, locked
      loginChallenges: 5,
      passkeyChallenges: 0,
      // logged out, idle, recovered, locked
      sessions: 4,
      // two of the idle session (rotated and current), one of each other
      refreshTokens: 5,
      // the voided link and the expired one
      passwordResetTokens: 2,
      // login:10.99.0.1 and reset:10.99.0.2
      rateLimitWindows: 2,
      accountThrottles: 1,
    });
    expect(await remaining()).toEqual({
      loginChallenges: [activeChallenge!.id, waitingChallenge!.id].sort(),
      sessions: [active.id],
      // the live session's rotated token (for reuse detection) and its current one
      refreshTokens: 2,
      passwordResetTokens: 0,
      rateLimitWindows: ['login:10.99.0.3'],
      accountThrottles: [guessedAt.email, locked.email, mistyped.email].sort(),
    });
    expect(await purge()).toEqual(none);

    // the signed-in customer carries on
    expect((await profile(refreshed.json().token)).statusCode).toBe(200);
    const again = await refresh(t, current);
    expect(again.statusCode).toBe(200);
    expect((await profile(again.json().token)).statusCode).toBe(200);
    // the one waiting for a code can still finish signing in
    const finished = await verify(t, fresh.json().tempToken, await latestCode(t), '10.99.0.7');
    expect(finished.statusCode).toBe(200);

    // a purged session answers as an ended one did
    expect((await refresh(t, loggedOutSession.refreshToken)).statusCode).toBe(401);
    expect((await logout(loggedOutSession.refreshToken)).statusCode).toBe(200);
    expect((await profile(idleSession.token)).statusCode).toBe(401);

    // the lock still stands, and the kept failures still count: two more make five, a wait
    const lockedOut = await login(t, loginBody(locked), '10.99.0.4');
    expect(lockedOut.statusCode).toBe(429);
    expect(lockedOut.json().message).toMatch(/locked/);
    await failLogin(guessedAt, '10.99.0.5');
    await failLogin(guessedAt, '10.99.0.5');
    expect((await login(t, loginBody(guessedAt), '10.99.0.6')).statusCode).toBe(429);
  });

  it('deletes a session a day after its absolute limit, however active it was', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer, { rememberMe: true });
    let token = session.refreshToken;
    for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
      t.clock.advance(20 * minute);
      const res = await refresh(t, token);
      expect(res.statusCode).toBe(200);
      token = refreshCookieOf(res)!.value;
    }
    // last used 11 h 40 min after sign-in: the absolute limit, not the idle one, ends it
    t.clock.advance(12 * hour + 24 * hour - 11 * hour - 40 * minute - minute);
    // the challenge of the sign-in was used a day and a half ago; the session still stays
    expect(await purge()).toEqual({ ...none, loginChallenges: 1 });
    t.clock.advance(2 * minute);
    expect(await purge()).toEqual({ ...none, sessions: 1, refreshTokens: 36 });
    expect(await remaining()).toMatchObject({ sessions: [], refreshTokens: 0 });
  });

  it('does the work once when several instances purge at the same time', async () => {
    for (let i = 0; i < 3; i += 1) {
      const session = await signIn(t, await createCustomer(t));
      expect((await logout(session.refreshToken)).statusCode).toBe(200);
    }
    t.clock.advance(25 * hour);
    const runs = await Promise.all([purge(), purge(), purge()]);
    const total = (name: keyof PurgeCounts) => runs.reduce((n, run) => n + run[name], 0);
    expect(total('sessions')).toBe(3);
    expect(total('refreshTokens')).toBe(3);
    expect(total('loginChallenges')).toBe(3);
    expect(runs.filter((run) => run.sessions > 0)).toHaveLength(1);
  });
});

describe('passkey challenges', () => {
  it('deletes a registration challenge no one answered, a day after it expired, and no other', async () => {
    const customer = await createCustomer(t);
    const old = await registrationOptionsFor(
      t,
      await authHeaders(t, customer.id),
      customer.password,
    );
    t.clock.advance(hour);
    const fresh = await registrationOptionsFor(
      t,
      await authHeaders(t, customer.id),
      customer.password,
    );
    // each goes a day after it expired: the first just after a day and five minutes
    t.clock.advance(24 * hour - 56 * minute);
    expect(await purge()).toEqual(none);
    t.clock.advance(2 * minute);
    expect(await purge()).toEqual({ ...none, passkeyChallenges: 1 });
    const left = await t.deps.db.select().from(passkeyChallenges);
    expect(left.map((row) => row.challenge)).toEqual([fresh.challenge]);
    expect(old.challenge).not.toBe(fresh.challenge);
  });
});
