import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths, changePasswordPath } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { activityEvents } from '../activity/schema';
import { accountThrottles } from './schema';
import {
  activityFeed,
  bearer,
  freshIp,
  login,
  loginBody,
  refresh,
  requestResetLink,
  resetPassword,
  signIn,
  waitForMailCount,
} from '../../test/auth';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const forgot = (email: string) => requestResetLink(t, email);

const reset = (token: string, newPassword?: string) => resetPassword(t, token, newPassword);

/** Asks for a link and reads its token from the mail, as the customer would. */
async function resetTokenFor(email: string) {
  const before = (await t.outbox()).length;
  expect((await forgot(email)).statusCode).toBe(200);
  const mail = (await waitForMailCount(t, before + 1)).at(-1)!;
  expect(mail.subject).toBe('Reset your password');
  const link = mail.text.match(/(\S+\/reset-password\?token=\S+)/)?.[1];
  expect(link).toBeDefined();
  expect(link!.startsWith(`${t.config.PUBLIC_URL}/reset-password?token=`)).toBe(true);
  expect(mail.text.trim()).toBe(
    [
      'Someone asked to reset the password of your portal account.',
      '',
      `Set a new password here: ${link}`,
      '',
      'The link works once and for 30 minutes. If you did not ask, ignore this mail.',
    ].join('\n'),
  );
  return new URL(link!).searchParams.get('token')!;
}

describe('POST /api/users/forgot-password', () => {
  it('mails a reset link to a known address', async () => {
    const customer = await createCustomer(t);
    const before = (await t.outbox()).length;
    const res = await forgot(customer.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'If an account exists for that e-mail, a reset link has been sent.',
    });
    // the first link is issued after the answer: wait for it, then let the minute pass
    await waitForMailCount(t, before + 1);
    t.clock.advance(61_000);
    const token = await resetTokenFor(customer.email);
    expect(token).toMatch(/^[\w-]{43}$/);
  });

  it('answers an unknown address the same way and mails nothing', async () => {
    const before = (await t.outbox()).length;
    const res = await forgot('nobody-here@example.test');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'If an account exists for that e-mail, a reset link has been sent.',
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await t.outbox()).toHaveLength(before);
  });

  it('refuses a malformed address with a 400', async () => {
    const res = await forgot('not-an-address');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      message: expect.stringContaining('Invalid email address'),
    });
  });
});

describe('POST /api/users/reset-password', () => {
  it('sets the new password, ends every session and mails a notice', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    const token = await resetTokenFor(customer.email);
    const before = (await t.outbox()).length;
    const res = await reset(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Password reset successfully!' });

    expect((await refresh(t, session.refreshToken)).statusCode).toBe(401);
    const profile = await t.app.inject({
      method: 'GET',
      url: authPaths.profile,
      headers: bearer(session.token),
    });
    expect(profile.statusCode).toBe(401);
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(401);
    expect(
      (await login(t, loginBody(customer, { password: 'Reset@2026' }), freshIp())).statusCode,
    ).toBe(200);
    const mails = await waitForMailCount(t, before + 1);
    const notice = mails.find(
      (m) => m.subject === 'Your password was changed' && m.to.includes(customer.email),
    );
    expect(notice?.text.trim()).toBe(
      [
        'The password of your portal account was just reset. Every signed-in browser was signed out.',
        '',
        'If this was not you, reset your password at once with "Forgot password?" on the sign-in screen.',
      ].join('\n'),
    );
    expect(await activityFeed(t, customer.id)).toContainEqual(
      expect.objectContaining({
        type: 'password_reset',
        title: 'Password reset',
        description:
          'Your password was reset by e-mail link. Every signed-in browser was signed out.',
        status: 'success',
      }),
    );
  });

  const invalid = { success: false, message: 'This reset link is invalid or has expired.' };

  it('takes a link only once', async () => {
    const customer = await createCustomer(t);
    const token = await resetTokenFor(customer.email);
    expect((await reset(token)).statusCode).toBe(200);
    const again = await reset(token, 'Another@2026');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(invalid);
  });

  it('takes a link only once when it is used several times at once', async () => {
    const customer = await createCustomer(t);
    const token = await resetTokenFor(customer.email);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => reset(token, `Parallel@${i}`)),
    );
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(1);
    for (const res of answers.filter((r) => r.statusCode !== 200)) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(invalid);
    }
    const resets = await t.deps.db
      .select()
      .from(activityEvents)
      .where(
        and(eq(activityEvents.customerId, customer.id), eq(activityEvents.type, 'password_reset')),
      );
    expect(resets).toHaveLength(1);
  });

  it('refuses a link older than 30 minutes', async () => {
    const customer = await createCustomer(t);
    const token = await resetTokenFor(customer.email);
    t.clock.advance(30 * 60_000);
    const res = await reset(token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid);
  });

  it('refuses an unknown token', async () => {
    const res = await reset('b'.repeat(43));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid);
  });

  it('works only for the newest link', async () => {
    const customer = await createCustomer(t);
    const first = await resetTokenFor(customer.email);
    t.clock.advance(61_000);
    const second = await resetTokenFor(customer.email);
    expect((await reset(first)).json()).toEqual(invalid);
    expect((await reset(second)).statusCode).toBe(200);
  });

  it('voids links issued before a password change', async () => {
    const customer = await createCustomer(t);
    const token = await resetTokenFor(customer.email);
    const session = await signIn(t, customer);
    const changed = await t.app.inject({
      method: 'PUT',
      url: changePasswordPath(customer.id),
      headers: bearer(session.token),
      payload: { currentPassword: customer.password, password: 'Changed@2026' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await reset(token)).json()).toEqual(invalid);
  });

  it('unlocks an account locked by failed sign-ins', async () => {
    const customer = await createCustomer(t);
    await t.deps.db.insert(accountThrottles).values({
      email: customer.email,
      consecutiveFailures: 100,
      lockedAt: t.clock.now(),
      updatedAt: t.clock.now(),
    });
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(429);
    const token = await resetTokenFor(customer.email);
    expect((await reset(token)).statusCode).toBe(200);
    expect(
      (await login(t, loginBody(customer, { password: 'Reset@2026' }), freshIp())).statusCode,
    ).toBe(200);
  });

  it('serves the reset page without a referrer, so the token does not leak', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/reset-password?token=abc' });
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('refuses a password on the breached-password list and keeps the link for a better one', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    const token = await resetTokenFor(customer.email);
    const common = await reset(token, 'Password1');
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual({
      success: false,
      message: 'This password is one of the most common and easily guessed. Please choose another.',
    });
    // nothing changed: the sessions live on, and the old password still signs in
    expect((await refresh(t, session.refreshToken)).statusCode).toBe(200);
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(200);
    expect((await reset(token, 'Reset@2026')).statusCode).toBe(200);
  });

  it('refuses a short password with a 400', async () => {
    const customer = await createCustomer(t);
    const token = await resetTokenFor(customer.email);
    const res = await reset(token, '12345');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('Password must be at least 6 characters');
  });
});
