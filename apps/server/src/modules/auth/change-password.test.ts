import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths, changePasswordPath } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { verifyPassword } from '../../lib/password';
import { jobsOf } from '../../test/queue';
import { auditOf, byCustomer } from '../../test/audit';
import {
  activityFeed,
  bearer,
  freshIp,
  login,
  loginBody,
  refresh,
  signIn,
  unreachableMailer,
  waitForMailCount,
} from '../../test/auth';
import { customers } from '../users/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const change = (token: string, id: string, body: object) =>
  t.app.inject({
    method: 'PUT',
    url: changePasswordPath(id),
    headers: bearer(token),
    payload: body,
  });

const passwordHashOf = async (id: string, app = t) =>
  (await app.deps.db.select().from(customers).where(eq(customers.id, id)))[0]!.passwordHash;

describe('PUT /api/users/:id', () => {
  it('changes the password, keeps this session and ends the others', async () => {
    const customer = await createCustomer(t);
    const here = await signIn(t, customer);
    const elsewhere = await signIn(t, customer);
    const mailsBefore = (await t.outbox()).length;
    const res = await change(here.token, customer.id, {
      currentPassword: customer.password,
      password: 'Fresh@2026',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Password changed successfully!' });

    expect(await verifyPassword(await passwordHashOf(customer.id), 'Fresh@2026')).toBe(true);
    const profile = (token: string) =>
      t.app.inject({ method: 'GET', url: authPaths.profile, headers: bearer(token) });
    expect((await profile(here.token)).statusCode).toBe(200);
    expect((await profile(elsewhere.token)).statusCode).toBe(401);
    expect((await refresh(t, elsewhere.refreshToken)).statusCode).toBe(401);
    expect((await refresh(t, here.refreshToken)).statusCode).toBe(200);

    const notice = (await waitForMailCount(t, mailsBefore + 1)).at(-1)!;
    expect(notice.subject).toBe('Your password was changed');
    expect(notice.to).toContain(customer.email);
    expect(notice.text.trim()).toBe(
      [
        'The password of your portal account was just changed. Other signed-in browsers were signed out.',
        '',
        'If this was not you, reset your password at once with "Forgot password?" on the sign-in screen.',
      ].join('\n'),
    );
    const old = await login(t, loginBody(customer), freshIp());
    expect(old.statusCode).toBe(401);
    expect(await activityFeed(t, customer.id)).toContainEqual(
      expect.objectContaining({
        type: 'password_changed',
        title: 'Password changed',
        description: 'Your password was changed. Other signed-in browsers were signed out.',
        status: 'success',
      }),
    );
  });

  it("refuses another customer's id and changes nothing", async () => {
    const customer = await createCustomer(t);
    const other = await createCustomer(t);
    const before = await passwordHashOf(other.id);
    const session = await signIn(t, customer);
    const res = await change(session.token, other.id, {
      currentPassword: customer.password,
      password: 'Hijack@2026',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      success: false,
      message: 'You can only change your own password.',
    });
    expect(await passwordHashOf(other.id)).toBe(before);
  });

  it('answers a wrong current password with a 400, not a 401', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    const res = await change(session.token, customer.id, {
      currentPassword: 'Wrong@123',
      password: 'Fresh@2026',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Current password is incorrect' });
    expect(await verifyPassword(await passwordHashOf(customer.id), customer.password)).toBe(true);
    expect(await auditOf(t, customer.id)).toContainEqual(
      byCustomer(customer.id, 'password_changed', { reason: 'wrong_password' }, 'failure'),
    );
  });

  it('stops guessing the current password after five tries', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    for (let i = 0; i < 5; i += 1) {
      const res = await change(session.token, customer.id, {
        currentPassword: `Wrong@${i}`,
        password: 'Fresh@2026',
      });
      expect(res.statusCode).toBe(400);
    }
    const res = await change(session.token, customer.id, {
      currentPassword: customer.password,
      password: 'Fresh@2026',
    });
    expect(res.statusCode).toBe(429);
  });

  it('checks five of many wrong current passwords sent at once and refuses the rest', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        change(session.token, customer.id, {
          currentPassword: `Wrong@${i}`,
          password: 'Fresh@2026',
        }),
      ),
    );
    const incorrect = answers.filter((res) => res.statusCode === 400);
    expect(incorrect).toHaveLength(5);
    expect(incorrect[0]!.json().message).toBe('Current password is incorrect');
    expect(answers.filter((res) => res.statusCode === 429)).toHaveLength(95);
  });

  it('does not count the right current password as a failure', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    for (let i = 0; i < 4; i += 1) {
      await change(session.token, customer.id, {
        currentPassword: `Wrong@${i}`,
        password: 'Fresh@2026',
      });
    }
    const right = await change(session.token, customer.id, {
      currentPassword: customer.password,
      password: 'Fresh@2026',
    });
    expect(right.statusCode).toBe(200);
    const again = await change(session.token, customer.id, {
      currentPassword: 'Fresh@2026',
      password: 'Fresh@2027',
    });
    expect(again.statusCode).toBe(200);
    // the four failures still stand: the fifth brings the wait
    const fifth = await change(session.token, customer.id, {
      currentPassword: 'Wrong@9',
      password: 'Fresh@2028',
    });
    expect(fifth.statusCode).toBe(400);
    const res = await change(session.token, customer.id, {
      currentPassword: 'Fresh@2027',
      password: 'Fresh@2028',
    });
    expect(res.statusCode).toBe(429);
  });

  it('refuses a short new password or a missing current one', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    const short = await change(session.token, customer.id, {
      currentPassword: customer.password,
      password: '12345',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('Password must be at least 6 characters long');
    const missing = await change(session.token, customer.id, { password: 'Fresh@2026' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('currentPassword');
  });

  it('refuses a password on the breached-password list, whatever its case, and changes nothing', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    const hashBefore = await passwordHashOf(customer.id);
    for (const common of ['password123', 'QWERTY123', 'Iloveyou']) {
      const res = await change(session.token, customer.id, {
        currentPassword: customer.password,
        password: common,
      });
      expect(res.statusCode, common).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message:
          'This password is one of the most common and easily guessed. Please choose another.',
      });
    }
    // refused before the current password is checked: no guess counted, nothing changed
    const wrongCurrent = await change(session.token, customer.id, {
      currentPassword: 'Not-the-password-1',
      password: 'password123',
    });
    expect(wrongCurrent.json().message).toBe(
      'This password is one of the most common and easily guessed. Please choose another.',
    );
    expect(await passwordHashOf(customer.id)).toBe(hashBefore);
    expect((await refresh(t, session.refreshToken)).statusCode).toBe(200);
    expect(await activityFeed(t, customer.id)).not.toContainEqual(
      expect.objectContaining({ type: 'password_changed' }),
    );
  });

  it('takes a passphrase of 64 characters and more', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    const passphrase = 'correct horse battery staple, and a kettle on the stove at dawn!!';
    expect(passphrase.length).toBeGreaterThanOrEqual(64);
    const res = await change(session.token, customer.id, {
      currentPassword: customer.password,
      password: passphrase,
    });
    expect(res.statusCode).toBe(200);
    expect(await verifyPassword(await passwordHashOf(customer.id), passphrase)).toBe(true);
  });

  it('needs a signed-in customer', async () => {
    const customer = await createCustomer(t);
    const res = await t.app.inject({
      method: 'PUT',
      url: changePasswordPath(customer.id),
      payload: { currentPassword: customer.password, password: 'Fresh@2026' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('PUT /api/users/:id while mail cannot be sent', () => {
  it('changes the password all the same, with the notice kept in the mail queue', async () => {
    const down = await createTestApp({ deps: { mailer: unreachableMailer() } });
    try {
      const customer = await createCustomer(down);
      const res = await down.app.inject({
        method: 'PUT',
        url: changePasswordPath(customer.id),
        headers: await authHeaders(down, customer.id),
        payload: { currentPassword: customer.password, password: 'Fresh@2026' },
      });
      expect(res.statusCode).toBe(200);
      expect(await verifyPassword(await passwordHashOf(customer.id, down), 'Fresh@2026')).toBe(
        true,
      );
      const mails = await jobsOf(down, 'mail');
      expect(mails.length).toBeGreaterThan(0);
      expect(mails.every((mail) => mail.state !== 'completed')).toBe(true);
    } finally {
      await down.close();
    }
  });
});
