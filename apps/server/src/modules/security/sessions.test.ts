import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authPaths,
  securityMessages,
  securityPaths,
  securitySessionPath,
  type SecuritySession,
} from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { auditOf } from '../../test/audit';
import { bearer, freshIp, refresh } from '../../test/auth';
import { sessions } from '../auth/schema';
import { ABSOLUTE_LIMIT_MS, IDLE_LIMIT_MS, revokeSession, startSession } from '../auth/sessions';
import { USER_AGENT_MAX_LENGTH } from '../auth/sign-in-record';
import { sessionDevices } from './schema';
import { CHROME_ON_WINDOWS, SAFARI_ON_IPHONE, signInFrom } from '../../test/security';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const listSessions = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: securityPaths.sessions, headers });

const endSession = (headers: Record<string, string>, id: string) =>
  t.app.inject({ method: 'DELETE', url: securitySessionPath(id), headers });

const endOthers = (headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: securityPaths.endOtherSessions, headers });

const profile = (token: string) =>
  t.app.inject({ method: 'GET', url: authPaths.profile, headers: bearer(token) });

/** The audit log's lines of sessions the customer ended from another of theirs. */
const signedOutOf = async (customerId: string) =>
  (await auditOf(t, customerId)).filter((row) => row.action === 'session_ended');

const signedOut = (customerId: string, sessionIds: string[]) => ({
  actorKind: 'customer',
  actorId: customerId,
  customerId,
  action: 'session_ended',
  outcome: 'success',
  clientNetwork: null,
  details: { reason: 'signed_out', sessionIds },
});

const sessionsOf = async (token: string): Promise<SecuritySession[]> => {
  const res = await listSessions(bearer(token));
  expect(res.statusCode).toBe(200);
  return res.json().data;
};

describe('GET /api/security/sessions', () => {
  it('lists each live session with its browser, device, address and times, this one marked', async () => {
    const customer = await createCustomer(t);
    const [windowsIp, phoneIp] = [freshIp(), freshIp()];
    const windows = await signInFrom(t, customer, { userAgent: CHROME_ON_WINDOWS, ip: windowsIp });
    const windowsStarted = t.clock.now();
    t.clock.advance(5 * 60_000);
    const phone = await signInFrom(t, customer, { userAgent: SAFARI_ON_IPHONE, ip: phoneIp });
    const phoneStarted = t.clock.now();
    t.clock.advance(2 * 60_000);

    const res = await listSessions(bearer(windows.token));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: securityMessages.sessionsFetched,
      // newest first
      data: [
        {
          _id: phone.sessionId,
          browser: 'Safari on iOS',
          device: 'phone',
          ip: phoneIp,
          createdAt: phoneStarted.toISOString(),
          lastUsedAt: phoneStarted.toISOString(),
          current: false,
        },
        {
          _id: windows.sessionId,
          browser: 'Chrome on Windows',
          device: 'desktop',
          ip: windowsIp,
          createdAt: windowsStarted.toISOString(),
          // the list's own request used it, more than a minute after it was last written
          lastUsedAt: t.clock.now().toISOString(),
          current: true,
        },
      ],
    });
    // the other device sees the same two, itself marked
    const fromPhone = await sessionsOf(phone.token);
    expect(fromPhone.map((s) => [s._id, s.current])).toEqual([
      [phone.sessionId, true],
      [windows.sessionId, false],
    ]);
    expect(fromPhone[1]!.lastUsedAt).toBe(t.clock.now().toISOString());
  });

  it('leaves out sessions that ended: signed out, idle too long, or past their absolute limit', async () => {
    const customer = await createCustomer(t);
    const start = async () =>
      (await startSession(t.deps.db, t.clock, customer.id, false)).sessionId;
    const [loggedOut, idle, tooOld, live] = [
      await start(),
      await start(),
      await start(),
      await start(),
    ];
    await revokeSession(t.deps.db, t.clock, loggedOut, 'logout');
    const now = t.clock.now().getTime();
    await t.deps.db
      .update(sessions)
      .set({ lastUsedAt: new Date(now - IDLE_LIMIT_MS) })
      .where(eq(sessions.id, idle));
    await t.deps.db
      .update(sessions)
      .set({ createdAt: new Date(now - ABSOLUTE_LIMIT_MS) })
      .where(eq(sessions.id, tooOld));
    const headers = await authHeaders(t, customer.id);

    const res = await listSessions(headers);
    expect(res.statusCode).toBe(200);
    const listed: SecuritySession[] = res.json().data;
    expect(listed.map((s) => s._id)).not.toContain(loggedOut);
    expect(listed.map((s) => s._id)).not.toContain(idle);
    expect(listed.map((s) => s._id)).not.toContain(tooOld);
    // a session started with no sign-in's browser on record shows that nothing is known
    expect(listed.find((s) => s._id === live)).toMatchObject({
      browser: 'An unknown browser on an unknown system',
      device: 'unknown',
      ip: '',
      current: false,
    });
    expect(listed).toHaveLength(2);

    // a moment younger than each limit, the session is still listed
    await t.deps.db
      .update(sessions)
      .set({ lastUsedAt: new Date(now - IDLE_LIMIT_MS + 1) })
      .where(eq(sessions.id, idle));
    await t.deps.db
      .update(sessions)
      .set({ createdAt: new Date(now - ABSOLUTE_LIMIT_MS + 1) })
      .where(eq(sessions.id, tooOld));
    const again: SecuritySession[] = (await listSessions(headers)).json().data;
    expect(again.map((s) => s._id)).toEqual(expect.arrayContaining([idle, tooOld, live]));
  });

  it("never shows another customer's sessions", async () => {
    const [customer, other] = [await createCustomer(t), await createCustomer(t)];
    const mine = await signInFrom(t, customer, { userAgent: CHROME_ON_WINDOWS, ip: freshIp() });
    const theirs = await signInFrom(t, other, { userAgent: CHROME_ON_WINDOWS, ip: freshIp() });
    expect((await sessionsOf(mine.token)).map((s) => s._id)).toEqual([mine.sessionId]);
    expect((await sessionsOf(theirs.token)).map((s) => s._id)).toEqual([theirs.sessionId]);
  });

  it('keeps the first 512 characters of an overlong User-Agent', async () => {
    const customer = await createCustomer(t);
    const long = `${CHROME_ON_WINDOWS} ${'x'.repeat(600)}`;
    const { sessionId } = await signInFrom(t, customer, { userAgent: long, ip: freshIp() });
    const [device] = await t.deps.db
      .select()
      .from(sessionDevices)
      .where(eq(sessionDevices.sessionId, sessionId));
    expect(device!.userAgent).toBe(long.slice(0, USER_AGENT_MAX_LENGTH));
    expect(USER_AGENT_MAX_LENGTH).toBe(512);
  });

  it('answers 401 without a live session', async () => {
    expect((await listSessions({})).statusCode).toBe(401);
    const customer = await createCustomer(t);
    const { token, sessionId } = await signInFrom(t, customer, {
      userAgent: CHROME_ON_WINDOWS,
      ip: freshIp(),
    });
    await revokeSession(t.deps.db, t.clock, sessionId, 'logout');
    expect((await listSessions(bearer(token))).statusCode).toBe(401);
  });

  it('shows this session’s last use as its own request leaves it, idle or not', async () => {
    const customer = await createCustomer(t);
    const { token, sessionId } = await signInFrom(t, customer, {
      userAgent: CHROME_ON_WINDOWS,
      ip: freshIp(),
    });
    const lastUseOf = async () =>
      (await sessionsOf(token)).find((s) => s._id === sessionId)!.lastUsedAt;
    const setLastUse = (lastUsedAt: Date) =>
      t.deps.db.update(sessions).set({ lastUsedAt }).where(eq(sessions.id, sessionId));
    const now = t.clock.now().getTime();

    // used less than a minute ago: the request leaves it as it was
    await setLastUse(new Date(now - 59_000));
    expect(await lastUseOf()).toBe(new Date(now - 59_000).toISOString());
    // a minute or more: the request writes it now
    await setLastUse(new Date(now - 60_000));
    expect(await lastUseOf()).toBe(t.clock.now().toISOString());
    // idle past the limit while its access token holds: listed, as this request renews it
    await setLastUse(new Date(now - IDLE_LIMIT_MS));
    expect(await lastUseOf()).toBe(t.clock.now().toISOString());
    const [row] = await t.deps.db.select().from(sessions).where(eq(sessions.id, sessionId));
    expect(row!.lastUsedAt).toEqual(t.clock.now());
  });
});

describe('DELETE /api/security/sessions/:id', () => {
  it('signs the session out at once: its access token and its refresh token are refused', async () => {
    const customer = await createCustomer(t);
    const here = await signInFrom(t, customer, { userAgent: CHROME_ON_WINDOWS, ip: freshIp() });
    const there = await signInFrom(t, customer, { userAgent: SAFARI_ON_IPHONE, ip: freshIp() });
    expect((await profile(there.token)).statusCode).toBe(200);

    const res = await endSession(bearer(here.token), there.sessionId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: securityMessages.sessionEnded });

    // its access token has not run out, yet the very next request is refused
    expect((await profile(there.token)).statusCode).toBe(401);
    expect((await listSessions(bearer(there.token))).statusCode).toBe(401);
    expect((await refresh(t, there.refreshToken)).statusCode).toBe(401);
    const [row] = await t.deps.db.select().from(sessions).where(eq(sessions.id, there.sessionId));
    expect(row).toMatchObject({ revokedAt: t.clock.now(), revokedReason: 'signed_out' });
    // this device goes on
    expect((await profile(here.token)).statusCode).toBe(200);
    expect((await sessionsOf(here.token)).map((s) => s._id)).toEqual([here.sessionId]);
    // the audit log tells which session the customer ended, and why
    expect(await signedOutOf(customer.id)).toEqual([signedOut(customer.id, [there.sessionId])]);
  });

  it("answers 404 for another customer's session, and leaves it standing", async () => {
    const [customer, other] = [await createCustomer(t), await createCustomer(t)];
    const mine = await signInFrom(t, customer, { userAgent: CHROME_ON_WINDOWS, ip: freshIp() });
    const theirs = await signInFrom(t, other, { userAgent: CHROME_ON_WINDOWS, ip: freshIp() });

    const res = await endSession(bearer(mine.token), theirs.sessionId);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: securityMessages.sessionNotFound });
    expect((await profile(theirs.token)).statusCode).toBe(200);
    const [row] = await t.deps.db.select().from(sessions).where(eq(sessions.id, theirs.sessionId));
    expect(row!.revokedAt).toBeNull();
  });

  it('answers 404 for an unknown, malformed or already ended id, and 414 for an overlong one', async () => {
    const customer = await createCustomer(t);
    const { token } = await signInFrom(t, customer, {
      userAgent: CHROME_ON_WINDOWS,
      ip: freshIp(),
    });
    const { sessionId: ended } = await startSession(t.deps.db, t.clock, customer.id, false);
    await revokeSession(t.deps.db, t.clock, ended, 'logout');

    for (const id of [crypto.randomUUID(), 'not-a-session', '1; drop table sessions', ended]) {
      const res = await endSession(bearer(token), id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().message).toBe(securityMessages.sessionNotFound);
    }
    const [row] = await t.deps.db.select().from(sessions).where(eq(sessions.id, ended));
    expect(row!.revokedReason).toBe('logout');
    expect((await endSession(bearer(token), 'a'.repeat(100))).statusCode).toBe(404);
    // longer than any id, the path is refused before it reaches the route
    const overlong = await endSession(bearer(token), 'a'.repeat(101));
    expect(overlong.statusCode).toBe(414);
    expect(overlong.json()).toMatchObject({ success: false, message: expect.any(String) });
    expect((await profile(token)).statusCode).toBe(200);
  });

  it('answers 401 without a live session, and ends nothing', async () => {
    const customer = await createCustomer(t);
    const { sessionId, token } = await signInFrom(t, customer, {
      userAgent: CHROME_ON_WINDOWS,
      ip: freshIp(),
    });
    expect((await endSession({}, sessionId)).statusCode).toBe(401);
    expect((await profile(token)).statusCode).toBe(200);
  });
});

describe('POST /api/security/sessions/end-others', () => {
  it('signs out every other session of the customer, keeps this one and no one else is touched', async () => {
    const [customer, other] = [await createCustomer(t), await createCustomer(t)];
    const here = await signInFrom(t, customer, { userAgent: CHROME_ON_WINDOWS, ip: freshIp() });
    const phone = await signInFrom(t, customer, { userAgent: SAFARI_ON_IPHONE, ip: freshIp() });
    const laptop = await signInFrom(t, customer, { userAgent: CHROME_ON_WINDOWS, ip: freshIp() });
    const theirs = await signInFrom(t, other, { userAgent: CHROME_ON_WINDOWS, ip: freshIp() });

    const res = await endOthers(bearer(here.token));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: securityMessages.otherSessionsEnded,
      data: { ended: 2 },
    });
    for (const ended of [phone, laptop]) {
      expect((await profile(ended.token)).statusCode).toBe(401);
      expect((await refresh(t, ended.refreshToken)).statusCode).toBe(401);
    }
    expect((await profile(here.token)).statusCode).toBe(200);
    expect((await profile(theirs.token)).statusCode).toBe(200);
    expect((await sessionsOf(here.token)).map((s) => s._id)).toEqual([here.sessionId]);

    // one line in the audit log names both sessions ended; the other customer's has none
    const [line, ...more] = await signedOutOf(customer.id);
    expect(more).toEqual([]);
    expect(line).toEqual(signedOut(customer.id, expect.any(Array)));
    expect([...line!.details.sessionIds!].sort()).toEqual(
      [phone.sessionId, laptop.sessionId].sort(),
    );
    expect(await signedOutOf(other.id)).toEqual([]);

    // nothing left to end, and nothing more in the audit log
    expect((await endOthers(bearer(here.token))).json().data).toEqual({ ended: 0 });
    expect(await signedOutOf(customer.id)).toHaveLength(1);
  });

  it('answers 401 without a live session, and ends nothing', async () => {
    const customer = await createCustomer(t);
    const { token } = await signInFrom(t, customer, {
      userAgent: CHROME_ON_WINDOWS,
      ip: freshIp(),
    });
    expect((await endOthers({})).statusCode).toBe(401);
    expect((await profile(token)).statusCode).toBe(200);
  });
});
