import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CODE_TTL_MS,
  RESEND_INTERVAL_MS,
  authMessages,
  authPaths,
  twoFactorMessages,
} from '@portal/contract';
import { deadLetterOf } from '../../adapters/queue';
import type { TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { drainQueue, jobsOf } from '../../test/queue';
import { appMailingThrough, createSmtpProcess, type SmtpProcess } from '../../test/smtp';
import { withAppOn } from '../../test/two-factor';
import { RATE_LIMITS } from '../../lib/rate-limit';
import { freshIp, login, loginBody } from '../../test/auth';

// The mail server is a real SMTP process that the test stops and starts; the portal delivers
// through its queue worker, as in production.
let smtp: SmtpProcess;
let t: TestApp;
beforeAll(async () => {
  smtp = await createSmtpProcess();
  t = await appMailingThrough(smtp);
}, 60_000);
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const askStatus = (payload: object, ip: string) =>
  t.app.inject({ method: 'POST', url: authPaths.codeMailStatus, payload, remoteAddress: ip });

/** The status the code step is told, waking the mail worker so that nobody waits its polling. */
async function statusOf(tempToken: string, ip: string) {
  t.deps.queue.wake('mail');
  const res = await askStatus({ tempToken }, ip);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.status as string;
}

/** Sign-in step one for a new customer; answers the token the code step holds. */
async function pendingSignIn() {
  const customer = await createCustomer(t);
  const ip = freshIp();
  const res = await login(t, loginBody(customer), ip);
  expect(res.statusCode).toBe(200);
  return { customer, ip, tempToken: res.json().tempToken as string };
}

const codeMailsTo = async (email: string) =>
  (await smtp.received()).filter((m) => m.to === email && m.subject === 'Your verification code');

describe('POST /api/auth/code-mail-status', () => {
  it('says sent once the mail server has taken the code', async () => {
    await smtp.start();
    try {
      const { customer, ip, tempToken } = await pendingSignIn();
      await expect.poll(() => statusOf(tempToken, ip), { timeout: 10_000 }).toBe('sent');
      expect(await codeMailsTo(customer.email)).toHaveLength(1);
    } finally {
      await smtp.stop();
    }
  });

  it("says failing while the code's own mail fails, dead-lettered too, and follows a resend", async () => {
    // down: the first try fails, and the mail waits for the next
    const first = await pendingSignIn();
    await expect
      .poll(() => statusOf(first.tempToken, first.ip), { timeout: 15_000 })
      .toBe('failing');
    const codeJob = (await jobsOf(t, 'mail')).find((job) => job.state !== 'completed');
    expect(codeJob!.state).toBe('retry');
    expect(codeJob!.output?.message).toMatch(/ECONNREFUSED/);

    await smtp.start();
    try {
      // another customer's code goes out meanwhile: each step learns of its own mail only
      const second = await pendingSignIn();
      await expect
        .poll(() => statusOf(second.tempToken, second.ip), { timeout: 10_000 })
        .toBe('sent');
      expect(await statusOf(first.tempToken, first.ip)).toBe('failing');
      await smtp.stop();

      // every try fails: the code's mail is dead-lettered, and still failing to the customer
      await drainQueue(t, 'mail', { retriesNow: true, timeoutMs: 60_000 });
      expect(await jobsOf(t, deadLetterOf('mail'))).toHaveLength(1);
      expect(await statusOf(first.tempToken, first.ip)).toBe('failing');

      // back, and a new code asked for: the status is the new code's mail
      await smtp.start();
      t.clock.advance(RESEND_INTERVAL_MS);
      const resent = await t.app.inject({
        method: 'POST',
        url: authPaths.resendVerification,
        payload: { tempToken: first.tempToken },
        remoteAddress: first.ip,
      });
      expect(resent.statusCode).toBe(200);
      await expect
        .poll(() => statusOf(first.tempToken, first.ip), { timeout: 10_000 })
        .toBe('sent');
      expect(await codeMailsTo(first.customer.email)).toHaveLength(1);
    } finally {
      await smtp.stop();
    }
  });

  it('answers only a token that holds an open e-mailed challenge, and refuses bad input', async () => {
    const ip = freshIp();
    const unknown = await askStatus({ tempToken: 'no-such-token' }, ip);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ success: false, message: authMessages.codeExpired });
    for (const payload of [{}, { tempToken: '' }, { tempToken: 'x'.repeat(201) }, { token: 'x' }]) {
      const bad = await askStatus(payload, ip);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json()).toMatchObject({ success: false, message: expect.any(String) });
    }

    // past its 10 minutes, a challenge says so, as its code would
    const expired = await pendingSignIn();
    t.clock.advance(CODE_TTL_MS);
    const late = await askStatus({ tempToken: expired.tempToken }, expired.ip);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(authMessages.codeExpired);

    // an account with the authenticator app is mailed no code
    const appUser = await createCustomer(t);
    await withAppOn(t, appUser);
    const appIp = freshIp();
    const appLogin = await login(t, loginBody(appUser), appIp);
    const noMail = await askStatus({ tempToken: appLogin.json().tempToken }, appIp);
    expect(noMail.statusCode).toBe(400);
    expect(noMail.json().message).toBe(twoFactorMessages.noEmailCode);
  });

  it('is limited per client address, like the other sign-in routes', async () => {
    const { tempToken, ip } = await pendingSignIn();
    const { max } = RATE_LIMITS['code-mail'];
    for (let i = 0; i < max; i += 1) {
      expect((await askStatus({ tempToken }, ip)).statusCode).toBe(200);
    }
    const refused = await askStatus({ tempToken }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many attempts\. Please wait \d+ minutes?/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // another address is not held back by this one
    expect((await askStatus({ tempToken }, freshIp())).statusCode).toBe(200);
  });
});
