import { eq, inArray } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { bearer, refresh, refreshCookieOf, signIn } from '../../test/auth';
import type { Transaction } from '../../db/client';
import { createAccessTokens } from './access-token';
import { REFRESH_COOKIE } from './routes';
import { logout as logoutSession } from './service';
import { sessions } from './schema';
import {
  createSessionCheck,
  revokeCustomerSession,
  revokeCustomerSessions,
  revokeSession,
  startSession,
} from './sessions';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const profile = (token: string) =>
  t.app.inject({ method: 'GET', url: authPaths.profile, headers: bearer(token) });

const logout = (refreshToken?: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: authPaths.logout,
    headers: {
      ...(refreshToken ? { cookie: `${REFRESH_COOKIE}=${refreshToken}` } : {}),
      ...headers,
    },
  });

const expired = { success: false, message: 'Session expired. Please log in again.' };

describe('POST /api/auth/refresh-token', () => {
  it('answers a new access token and rotates the cookie', async () => {
    const session = await signIn(t, await createCustomer(t));
    t.clock.advance(60_000);
    const res = await refresh(t, session.refreshToken, { 'sec-fetch-site': 'same-origin' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, token: expect.any(String) });
    const cookie = refreshCookieOf(res);
    expect(cookie?.value).toMatch(/^[\w-]{43}$/);
    expect(cookie?.value).not.toBe(session.refreshToken);
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.maxAge).toBeUndefined();
    expect((await profile(res.json().token)).statusCode).toBe(200);
  });

  it('keeps a Remember me cookie no longer than the session may live', async () => {
    const session = await signIn(t, await createCustomer(t), { rememberMe: true });
    t.clock.advance(20 * 60_000);
    const res = await refresh(t, session.refreshToken);
    expect(refreshCookieOf(res)?.maxAge).toBe(12 * 60 * 60 - 20 * 60);
  });

  it('answers 401 without a cookie or with an unknown one', async () => {
    const none = await refresh(t);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual(expired);
    const unknown = await refresh(t, 'a'.repeat(43));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(expired);
    expect(String(unknown.headers['set-cookie'])).toMatch(
      /__Host-refresh=;.*Expires=Thu, 01 Jan 1970/,
    );
  });

  it('ends the whole family when a rotated token comes back', async () => {
    const session = await signIn(t, await createCustomer(t));
    const rotated = await refresh(t, session.refreshToken);
    const newest = refreshCookieOf(rotated)!.value;
    t.clock.advance(11_000);
    const reused = await refresh(t, session.refreshToken);
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toEqual(expired);
    expect((await refresh(t, newest)).statusCode).toBe(401);
    expect((await profile(rotated.json().token)).statusCode).toBe(401);
  });

  it('lets two tabs refreshing at once both stay signed in', async () => {
    const session = await signIn(t, await createCustomer(t));
    const [a, b] = await Promise.all([
      refresh(t, session.refreshToken),
      refresh(t, session.refreshToken),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    const tokenA = refreshCookieOf(a)!.value;
    const tokenB = refreshCookieOf(b)!.value;
    expect(tokenA).not.toBe(tokenB);
    t.clock.advance(5_000);
    const late = await refresh(t, session.refreshToken);
    expect(late.statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await refresh(t, tokenA)).statusCode).toBe(200);
    expect((await refresh(t, tokenB)).statusCode).toBe(200);
    expect((await profile(b.json().token)).statusCode).toBe(200);
  });

  it('takes a rotated token back for exactly ten seconds after its exchange', async () => {
    const session = await signIn(t, await createCustomer(t));
    expect((await refresh(t, session.refreshToken)).statusCode).toBe(200);
    t.clock.advance(10_000);
    expect((await refresh(t, session.refreshToken)).statusCode).toBe(200);
    t.clock.advance(1);
    const reused = await refresh(t, session.refreshToken);
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toEqual(expired);
  });

  it('ends a session left idle for 30 minutes', async () => {
    const session = await signIn(t, await createCustomer(t));
    t.clock.advance(29 * 60_000);
    const active = await refresh(t, session.refreshToken);
    expect(active.statusCode).toBe(200);
    t.clock.advance(30 * 60_000);
    const idle = await refresh(t, refreshCookieOf(active)!.value);
    expect(idle.statusCode).toBe(401);
    expect(idle.json()).toEqual(expired);
  });

  it('ends every session 12 hours after sign-in, however active', async () => {
    const session = await signIn(t, await createCustomer(t), { rememberMe: true });
    let token = session.refreshToken;
    for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
      t.clock.advance(20 * 60_000);
      const res = await refresh(t, token);
      expect(res.statusCode).toBe(200);
      token = refreshCookieOf(res)!.value;
    }
    t.clock.advance(20 * 60_000);
    const res = await refresh(t, token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(expired);
  });

  it('refuses cross-site requests', async () => {
    const session = await signIn(t, await createCustomer(t));
    const crossSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of crossSite) {
      const res = await refresh(t, session.refreshToken, headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, message: 'Cross-site request refused.' });
    }
    const same = await refresh(t, session.refreshToken, {
      origin: new URL(t.config.PUBLIC_URL).origin,
      'sec-fetch-site': 'same-origin',
    });
    expect(same.statusCode).toBe(200);
  });
});

describe('POST /api/auth/logout', () => {
  it('ends the session and clears the cookie', async () => {
    const session = await signIn(t, await createCustomer(t));
    const res = await logout(session.refreshToken, bearer(session.token));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Logged out successfully' });
    expect(String(res.headers['set-cookie'])).toMatch(/__Host-refresh=;.*Expires=Thu, 01 Jan 1970/);
    expect((await refresh(t, session.refreshToken)).statusCode).toBe(401);
    expect((await profile(session.token)).statusCode).toBe(401);
  });

  it('works with the cookie alone after the access token expired', async () => {
    const session = await signIn(t, await createCustomer(t));
    t.clock.advance(16 * 60_000);
    const res = await logout(session.refreshToken, bearer(session.token));
    expect(res.statusCode).toBe(200);
    expect((await refresh(t, session.refreshToken)).statusCode).toBe(401);
  });

  it('ends the session of the bearer token when no cookie comes', async () => {
    const session = await signIn(t, await createCustomer(t));
    expect((await logout(undefined, bearer(session.token))).statusCode).toBe(200);
    expect((await profile(session.token)).statusCode).toBe(401);
  });

  it('is safe to repeat', async () => {
    const session = await signIn(t, await createCustomer(t));
    expect((await logout(session.refreshToken)).statusCode).toBe(200);
    expect((await logout(session.refreshToken)).statusCode).toBe(200);
    expect((await logout()).statusCode).toBe(200);
  });

  it('ends the session and writes its audit row together, or neither', async () => {
    const session = await signIn(t, await createCustomer(t));
    // the audit log refuses every row written in a transaction
    const db = new Proxy(t.deps.db, {
      get: (target, name, receiver) =>
        name === 'transaction'
          ? (work: (tx: Transaction) => Promise<unknown>) =>
              target.transaction((tx) =>
                work(
                  new Proxy(tx, {
                    get: (inner, key, innerReceiver) =>
                      key === 'insert'
                        ? () => {
                            throw new Error('audit log unavailable');
                          }
                        : Reflect.get(inner, key, innerReceiver),
                  }),
                ),
              )
          : Reflect.get(target, name, receiver),
    });
    const tokens = createAccessTokens(t.deps.secrets.jwt, t.clock);
    await expect(
      logoutSession({ ...t.deps, db }, tokens, session.refreshToken, undefined),
    ).rejects.toThrow('audit log unavailable');
    expect((await profile(session.token)).statusCode).toBe(200);

    await logoutSession(t.deps, tokens, session.refreshToken, undefined);
    expect((await profile(session.token)).statusCode).toBe(401);
  });

  it('refuses cross-site requests', async () => {
    const session = await signIn(t, await createCustomer(t));
    const res = await logout(session.refreshToken, { 'sec-fetch-site': 'cross-site' });
    expect(res.statusCode).toBe(403);
    expect((await refresh(t, session.refreshToken)).statusCode).toBe(200);
  });
});

describe('authenticated routes', () => {
  it('answer an expired access token with 401 jwt expired', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    t.clock.advance(15 * 60_000 + 1_000);
    const res = await t.app.inject({ method: 'GET', url: authPaths.profile, headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: 'jwt expired', error: 'jwt expired' });
  });

  it('refuse a missing, malformed or foreign-signed token', async () => {
    const customer = await createCustomer(t);
    const none = await t.app.inject({ method: 'GET', url: authPaths.profile });
    expect(none.statusCode).toBe(401);
    expect((await profile('not.a.jwt')).statusCode).toBe(401);
    const forged = await new SignJWT({ sid: crypto.randomUUID(), typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(customer.id)
      .setAudience('customer-portal')
      .setIssuer('customer-portal')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('another-secret-'.padEnd(48, 'z')));
    expect((await profile(forged)).statusCode).toBe(401);
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: customer.id, sid: crypto.randomUUID(), typ: 'access' }),
    ).toString('base64url')}.`;
    expect((await profile(unsigned)).statusCode).toBe(401);
  });

  it('refuse a valid token whose session does not exist', async () => {
    const customer = await createCustomer(t);
    const tokens = (await import('./access-token')).createAccessTokens(t.deps.secrets.jwt, t.clock);
    const token = await tokens.sign({ customerId: customer.id, sessionId: crypto.randomUUID() });
    const res = await profile(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(expired);
  });
});

describe('GET /api/auth/profile', () => {
  it('answers every profile field of the signed-in customer', async () => {
    const customer = await createCustomer(t);
    const res = await t.app.inject({
      method: 'GET',
      url: authPaths.profile,
      headers: await authHeaders(t, customer.id),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Profile fetched successfully',
      data: {
        user: {
          _id: customer.id,
          id: customer.id,
          company_name: customer.companyName,
          email: customer.email,
          mobile: customer.mobile,
          gstNo: customer.gstNo,
          category: customer.category,
          tally_serialno: customer.tallySerialNo,
          tally_version: customer.tallyVersion,
          customer_type: 'Customer',
          created_at: customer.createdAt.toISOString(),
          plan: null,
        },
      },
    });
  });
});

describe('revokeCustomerSessions', () => {
  const revoked = async (ids: string[]) =>
    Object.fromEntries(
      (
        await t.deps.db
          .select({ id: sessions.id, at: sessions.revokedAt, reason: sessions.revokedReason })
          .from(sessions)
          .where(inArray(sessions.id, ids))
      ).map((row) => [row.id, row.at ? { at: row.at.getTime(), reason: row.reason } : null]),
    );

  it('ends every live session of the customer but the one kept, and no other customer’s', async () => {
    const [customer, other] = [await createCustomer(t), await createCustomer(t)];
    const start = async (customerId: string) =>
      (await startSession(t.deps.db, t.clock, customerId, false)).sessionId;
    const [ended, kept, alsoEnded, othersOwn, loggedOut] = [
      await start(customer.id),
      await start(customer.id),
      await start(customer.id),
      await start(other.id),
      await start(customer.id),
    ];
    await revokeSession(t.deps.db, t.clock, loggedOut, 'logout');
    const loggedOutAt = t.clock.now().getTime();
    t.clock.advance(60_000);
    expect(
      await revokeCustomerSessions(t.deps.db, t.clock, customer.id, 'password_changed', kept),
    ).toBe(2);
    const now = t.clock.now().getTime();
    expect(await revoked([ended, kept, alsoEnded, othersOwn, loggedOut])).toEqual({
      [ended]: { at: now, reason: 'password_changed' },
      [kept]: null,
      [alsoEnded]: { at: now, reason: 'password_changed' },
      [othersOwn]: null,
      // an ended session keeps when and why it ended
      [loggedOut]: { at: loggedOutAt, reason: 'logout' },
    });

    t.clock.advance(60_000);
    expect(await revokeCustomerSessions(t.deps.db, t.clock, customer.id, 'password_reset')).toBe(1);
    expect((await revoked([kept]))[kept]).toEqual({
      at: t.clock.now().getTime(),
      reason: 'password_reset',
    });
    expect((await revoked([othersOwn]))[othersOwn]).toBeNull();
  });
});

describe('revokeCustomerSession', () => {
  it('ends the session only when it is the customer’s and unended, and says whether it did', async () => {
    const [customer, other] = [await createCustomer(t), await createCustomer(t)];
    const { sessionId } = await startSession(t.deps.db, t.clock, customer.id, false);
    const reasonOf = async () =>
      (await t.deps.db.select().from(sessions).where(eq(sessions.id, sessionId)))[0]!;

    expect(await revokeCustomerSession(t.deps.db, t.clock, other.id, sessionId, 'signed_out')).toBe(
      false,
    );
    expect((await reasonOf()).revokedAt).toBeNull();
    expect(
      await revokeCustomerSession(t.deps.db, t.clock, customer.id, sessionId, 'signed_out'),
    ).toBe(true);
    const endedAt = t.clock.now();
    expect(await reasonOf()).toMatchObject({ revokedAt: endedAt, revokedReason: 'signed_out' });

    t.clock.advance(60_000);
    expect(
      await revokeCustomerSession(t.deps.db, t.clock, customer.id, sessionId, 'notice_link'),
    ).toBe(false);
    expect(await reasonOf()).toMatchObject({ revokedAt: endedAt, revokedReason: 'signed_out' });
  });
});

describe('createSessionCheck', () => {
  it('stands for a live session of its customer only, and writes lastUsedAt once a minute old', async () => {
    const isLive = createSessionCheck(t.deps.db, t.clock);
    const [customer, other] = [await createCustomer(t), await createCustomer(t)];
    const { sessionId } = await startSession(t.deps.db, t.clock, customer.id, false);
    const lastUsedAt = async () =>
      (await t.deps.db.select().from(sessions).where(eq(sessions.id, sessionId)))[0]!.lastUsedAt;
    const started = await lastUsedAt();

    expect(await isLive(sessionId, customer.id)).toBe(true);
    expect(await isLive(sessionId, other.id)).toBe(false);
    expect(await isLive(crypto.randomUUID(), customer.id)).toBe(false);
    t.clock.advance(59_999);
    expect(await isLive(sessionId, customer.id)).toBe(true);
    expect(await lastUsedAt()).toEqual(started);
    t.clock.advance(1);
    expect(await isLive(sessionId, customer.id)).toBe(true);
    expect(await lastUsedAt()).toEqual(t.clock.now());

    await revokeSession(t.deps.db, t.clock, sessionId, 'logout');
    expect(await isLive(sessionId, customer.id)).toBe(false);
  });
});
