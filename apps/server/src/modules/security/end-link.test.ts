import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths, securityMessages, securityPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { NEW_BROWSER_SUBJECT } from '../mail/templates';
import { auditOf } from '../../test/audit';
import { bearer, freshIp, refresh } from '../../test/auth';
import { sessions } from '../auth/schema';
import { sha256 } from '../auth/secrets';
import { END_LINK_TTL_MS } from '../auth/sign-in-record';
import { sessionEndLinks } from './schema';
import { CHROME_ON_WINDOWS, SAFARI_ON_IPHONE, signInFrom } from '../../test/security';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Customer = Awaited<ReturnType<typeof createCustomer>>;

const endByLink = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: securityPaths.endSessionByLink, payload: payload as object });

const profile = (token: string) =>
  t.app.inject({ method: 'GET', url: authPaths.profile, headers: bearer(token) });

const device = (c: string) => c.repeat(43);

/** A customer signed in at home, then from a phone not seen before: the phone's notice. */
async function newBrowserNotice(customer: Customer) {
  await signInFrom(t, customer, {
    userAgent: CHROME_ON_WINDOWS,
    ip: freshIp(),
    deviceCookie: device('h'),
  });
  const phoneIp = freshIp();
  const phone = await signInFrom(t, customer, {
    userAgent: SAFARI_ON_IPHONE,
    ip: phoneIp,
    deviceCookie: device('p'),
  });
  const notices = (await t.outbox()).filter(
    (m) => m.to === customer.email && m.subject === NEW_BROWSER_SUBJECT,
  );
  expect(notices).toHaveLength(1);
  const notice = notices[0]!;
  const link = /(http\S+\/end-session#token=([A-Za-z0-9_-]{43}))/.exec(notice.text);
  expect(link).not.toBeNull();
  return { phone, phoneIp, notice, link: link![1]!, token: link![2]! };
}

describe('the new-browser notice', () => {
  it('says when, from what device and address, and links to ending that session', async () => {
    const customer = await createCustomer(t);
    const { notice, phoneIp, link, token } = await newBrowserNotice(customer);
    expect(notice.text).toMatch(/When: \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} \(India time\)/);
    expect(notice.text).toContain('Browser: Safari on iOS');
    expect(notice.text).toContain(`Address: ${phoneIp}`);
    expect(link.startsWith(`${t.config.PUBLIC_URL.replace(/\/$/, '')}/end-session#token=`)).toBe(
      true,
    );
    expect(notice.html).toContain('End that session');
    expect(notice.html).toContain(link);
    // only the token's hash is kept
    const stored = await t.deps.db.select().from(sessionEndLinks);
    expect(stored.map((row) => row.tokenHash)).toContain(sha256(token));
    expect(stored.map((row) => row.tokenHash)).not.toContain(token);
  });
});

describe('POST /api/security/end-session-link', () => {
  it('ends the session the notice tells of at once, and works once', async () => {
    const customer = await createCustomer(t);
    const { phone, token } = await newBrowserNotice(customer);
    expect((await profile(phone.token)).statusCode).toBe(200);

    const res = await endByLink({ token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: securityMessages.sessionEnded,
      data: { browser: 'Safari on iOS' },
    });
    expect((await profile(phone.token)).statusCode).toBe(401);
    expect((await refresh(t, phone.refreshToken)).statusCode).toBe(401);
    const [row] = await t.deps.db.select().from(sessions).where(eq(sessions.id, phone.sessionId));
    expect(row!.revokedReason).toBe('notice_link');
    // the audit log has the customer ending that session by the notice's link
    const endings = async () =>
      (await auditOf(t, customer.id)).filter((line) => line.action === 'session_ended');
    expect(await endings()).toEqual([
      {
        actorKind: 'customer',
        actorId: customer.id,
        customerId: customer.id,
        action: 'session_ended',
        outcome: 'success',
        clientNetwork: null,
        details: { reason: 'notice_link', sessionIds: [phone.sessionId] },
      },
    ]);

    const again = await endByLink({ token });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ success: false, message: securityMessages.endLinkInvalid });
    expect(await endings()).toHaveLength(1);
  });

  it('ends nothing once 24 hours have passed', async () => {
    const customer = await createCustomer(t);
    const { phone, token } = await newBrowserNotice(customer);
    expect(END_LINK_TTL_MS).toBe(24 * 60 * 60_000);
    t.clock.advance(END_LINK_TTL_MS);
    const res = await endByLink({ token });
    expect(res.statusCode).toBe(404);
    const [row] = await t.deps.db.select().from(sessions).where(eq(sessions.id, phone.sessionId));
    expect(row!.revokedAt).toBeNull();
  });

  it('still works a moment before 24 hours have passed', async () => {
    const customer = await createCustomer(t);
    const { phone, token } = await newBrowserNotice(customer);
    t.clock.advance(END_LINK_TTL_MS - 1);
    expect((await endByLink({ token })).statusCode).toBe(200);
    const [row] = await t.deps.db.select().from(sessions).where(eq(sessions.id, phone.sessionId));
    expect(row!.revokedReason).toBe('notice_link');
  });

  it('answers 404 for a token it never gave, and 400 for no token', async () => {
    const customer = await createCustomer(t);
    const { phone } = await newBrowserNotice(customer);
    for (const token of ['x'.repeat(43), 'not a token']) {
      const res = await endByLink({ token });
      expect(res.statusCode, token).toBe(404);
      expect(res.json().message).toBe(securityMessages.endLinkInvalid);
    }
    for (const payload of [{}, { token: '' }, { token: '   ' }, { token: 'x'.repeat(201) }, []]) {
      const res = await endByLink(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().success).toBe(false);
    }
    expect((await profile(phone.token)).statusCode).toBe(200);
  });

  it('gives no link for the first browser of an account, which is told of in no notice', async () => {
    const customer = await createCustomer(t);
    const { sessionId } = await signInFrom(t, customer, {
      userAgent: CHROME_ON_WINDOWS,
      ip: freshIp(),
      deviceCookie: device('f'),
    });
    const links = await t.deps.db
      .select()
      .from(sessionEndLinks)
      .where(eq(sessionEndLinks.sessionId, sessionId));
    expect(links).toEqual([]);
  });
});
