import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserSchema, authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { jobsOf } from '../../test/queue';
import { activityEvents } from '../activity/schema';
import { sessions } from './schema';
import {
  activityFeed,
  freshIp,
  latestCode,
  login,
  loginBody,
  unreachableMailer,
  refreshCookieOf,
  verify,
  wrongCode,
} from '../../test/auth';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function startChallenge(options: { rememberMe?: boolean } = {}) {
  const customer = await createCustomer(t);
  const ip = freshIp();
  const res = await login(t, loginBody(customer, { rememberMe: options.rememberMe ?? false }), ip);
  expect(res.statusCode).toBe(200);
  return { customer, ip, tempToken: res.json().tempToken as string, code: await latestCode(t) };
}

const resend = (tempToken: string) =>
  t.app.inject({ method: 'POST', url: authPaths.resendVerification, payload: { tempToken } });

describe('POST /api/auth/verify-2fa', () => {
  it('signs in with the e-mailed code and answers the token and every profile field', async () => {
    const { customer, ip, tempToken, code } = await startChallenge();
    const res = await verify(t, tempToken, code, ip);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Login successful!' });
    expect(body.token.split('.')).toHaveLength(3);
    expect(UserSchema.strict().parse(body.user)).toEqual({
      _id: customer.id,
      id: customer.id,
      company_name: customer.companyName,
      email: customer.email,
      mobile: customer.mobile,
      gstNo: customer.gstNo,
      category: customer.category,
      tally_serialno: customer.tallySerialNo,
      tally_version: customer.tallyVersion,
      customer_type: customer.customerType,
      created_at: customer.createdAt.toISOString(),
      plan: null,
    });
  });

  it('sets a browser-session refresh cookie: __Host-, HttpOnly, Secure, SameSite=Strict', async () => {
    const { ip, tempToken, code } = await startChallenge();
    const res = await verify(t, tempToken, code, ip);
    const header = String(res.headers['set-cookie']);
    expect(header).toMatch(/^__Host-refresh=[\w-]{43};/);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('Secure');
    expect(header).toContain('SameSite=Strict');
    expect(header).toContain('Path=/');
    expect(header).not.toMatch(/Max-Age|Expires|Domain/i);
  });

  it('with Remember me lets the cookie live as long as the session may', async () => {
    const { ip, tempToken, code } = await startChallenge({ rememberMe: true });
    const res = await verify(t, tempToken, code, ip);
    expect(refreshCookieOf(res)?.maxAge).toBe(12 * 60 * 60);
  });

  it("records the sign-in in the customer's activity, naming the session it started", async () => {
    const { customer, ip, tempToken, code } = await startChallenge();
    await verify(t, tempToken, code, ip);
    const [session] = await t.deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.customerId, customer.id));
    const events = await t.deps.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.customerId, customer.id));
    expect(events).toEqual([
      expect.objectContaining({ type: 'signin', details: { sessionId: session!.id } }),
    ]);
    expect(await activityFeed(t, customer.id)).toEqual([
      expect.objectContaining({
        type: 'signin',
        title: 'Signed in',
        description: 'You signed in to the portal.',
        status: 'success',
      }),
    ]);
  });

  it('takes the code with spaces typed around it', async () => {
    const { ip, tempToken, code } = await startChallenge();
    const res = await verify(t, tempToken, ` ${code} `, ip);
    expect(res.statusCode).toBe(200);
  });

  it('says so when the code is wrong', async () => {
    const { ip, tempToken, code } = await startChallenge();
    const res = await verify(t, tempToken, wrongCode(code), ip);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Invalid verification code' });
  });

  it("records a wrong code in the customer's activity", async () => {
    const { customer, ip, tempToken, code } = await startChallenge();
    await verify(t, tempToken, wrongCode(code), ip);
    expect(await activityFeed(t, customer.id)).toEqual([
      expect.objectContaining({
        type: 'signin_failed',
        title: 'Sign-in failed',
        description: 'An incorrect verification code was entered.',
        status: 'failed',
      }),
    ]);
  });

  it('refuses the code after five wrong tries', async () => {
    const { ip, tempToken, code } = await startChallenge();
    for (let i = 1; i <= 4; i += 1) {
      const res = await verify(t, tempToken, wrongCode(code), ip);
      expect(res.json().message).toBe('Invalid verification code');
    }
    const fifth = await verify(t, tempToken, wrongCode(code), ip);
    expect(fifth.statusCode).toBe(400);
    expect(fifth.json().message).toBe('Too many incorrect codes. Please sign in again.');
    const right = await verify(t, tempToken, code, ip);
    expect(right.statusCode).toBe(400);
    expect(right.json().message).toBe('Too many incorrect codes. Please sign in again.');
  });

  it('refuses a code older than 10 minutes', async () => {
    const { ip, tempToken, code } = await startChallenge();
    t.clock.advance(10 * 60_000);
    const res = await verify(t, tempToken, code, ip);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Verification code has expired. Please sign in again.');
  });

  it('takes a code only once', async () => {
    const { ip, tempToken, code } = await startChallenge();
    expect((await verify(t, tempToken, code, ip)).statusCode).toBe(200);
    const again = await verify(t, tempToken, code, ip);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Verification code has expired. Please sign in again.');
  });

  it("refuses one sign-in's code for another sign-in", async () => {
    const first = await startChallenge();
    const second = await startChallenge();
    if (first.code === second.code) return expect(first.code).toBe(second.code);
    const res = await verify(t, second.tempToken, first.code, second.ip);
    expect(res.json().message).toBe('Invalid verification code');
  });

  it('refuses an unknown tempToken', async () => {
    const res = await verify(t, 'not-a-token', '123456', freshIp());
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Verification code has expired. Please sign in again.');
  });

  it('refuses a missing or over-long code with a 400', async () => {
    const { ip, tempToken } = await startChallenge();
    const missing = await t.app.inject({
      method: 'POST',
      url: authPaths.verify2fa,
      payload: { tempToken },
      remoteAddress: ip,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      success: false,
      message: expect.stringContaining('verificationCode'),
    });
    const long = await verify(t, tempToken, '1234567', ip);
    expect(long.statusCode).toBe(400);
    expect(long.json().success).toBe(false);
  });
});

describe('POST /api/auth/resend-verification', () => {
  it('sends a new code, after which only the new one works', async () => {
    const { ip, tempToken, code: oldCode } = await startChallenge();
    t.clock.advance(60_000);
    let res = await resend(tempToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Verification code sent to your email' });
    let newCode = await latestCode(t);
    // a fresh random code may repeat the old one (one in a million): draw again
    while (newCode === oldCode) {
      t.clock.advance(60_000);
      res = await resend(tempToken);
      newCode = await latestCode(t);
    }
    const old = await verify(t, tempToken, oldCode, ip);
    expect(old.statusCode).toBe(400);
    expect(old.json().message).toBe('Invalid verification code');
    expect((await verify(t, tempToken, newCode, ip)).statusCode).toBe(200);
  });

  it('asks to wait when a code was sent less than a minute ago', async () => {
    const { tempToken } = await startChallenge();
    t.clock.advance(15_000);
    const res = await resend(tempToken);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('45');
    // the web app tells a wait from the limit by the label
    expect(res.json()).toEqual({
      success: false,
      message: 'Please wait 45 seconds before requesting a new code.',
      error: 'resend_wait',
    });
  });

  it('asks to wait one second in the singular', async () => {
    const { tempToken } = await startChallenge();
    t.clock.advance(59_500);
    const res = await resend(tempToken);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json().message).toBe('Please wait 1 second before requesting a new code.');
  });

  it('sends at most five new codes for one sign-in', async () => {
    const { tempToken } = await startChallenge();
    for (let i = 0; i < 5; i += 1) {
      t.clock.advance(60_000);
      expect((await resend(tempToken)).statusCode).toBe(200);
    }
    t.clock.advance(60_000);
    const sixth = await resend(tempToken);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual({
      success: false,
      message: 'Too many codes requested. Please sign in again.',
      error: 'resend_limit',
    });
  });

  it('refuses an unknown or used tempToken', async () => {
    const unknown = await resend('no-such-token');
    expect(unknown.statusCode).toBe(400);
    const { ip, tempToken, code } = await startChallenge();
    await verify(t, tempToken, code, ip);
    t.clock.advance(60_000);
    const used = await resend(tempToken);
    expect(used.statusCode).toBe(400);
    expect(used.json().message).toBe('Verification code has expired. Please sign in again.');
  });
});

describe('POST /api/auth/resend-verification while mail cannot be sent', () => {
  it('answers at once, with the new code kept in the mail queue until mail can go', async () => {
    const down = await createTestApp({ deps: { mailer: unreachableMailer() } });
    try {
      const customer = await createCustomer(down);
      const first = await login(down, loginBody(customer), freshIp());
      expect(first.statusCode).toBe(200);
      down.clock.advance(60_000);
      const res = await down.app.inject({
        method: 'POST',
        url: authPaths.resendVerification,
        payload: { tempToken: first.json().tempToken },
      });
      expect(res.statusCode).toBe(200);
      const mails = await jobsOf(down, 'mail');
      expect(mails).toHaveLength(2);
      expect(mails.every((mail) => mail.state !== 'completed')).toBe(true);
    } finally {
      await down.close();
    }
  });
});
