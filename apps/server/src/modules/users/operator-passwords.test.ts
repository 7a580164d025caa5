import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { operatorSendResetLink, operatorSetPassword } from '../auth/passwords';
import {
  activityFeed,
  freshIp,
  login,
  loginBody,
  refresh,
  resetPassword,
  signIn,
  waitForMailCount,
} from '../../test/auth';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const reset = (token: string, newPassword?: string) => resetPassword(t, token, newPassword);

const tokenOf = (text: string) => {
  const link = text.match(/(\S+\/reset-password\?token=\S+)/)?.[1];
  if (!link) throw new Error('no reset link in the mail');
  return new URL(link).searchParams.get('token')!;
};

describe('support sets a password', () => {
  it('lets only the new password in, ends every session and tells the customer in the activity', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    await operatorSetPassword(t.deps, customer, 'Support@2026');

    expect((await refresh(t, session.refreshToken)).statusCode).toBe(401);
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(401);
    const fresh = loginBody(customer, { password: 'Support@2026' });
    expect((await login(t, fresh, freshIp())).statusCode).toBe(200);
    expect(await activityFeed(t, customer.id)).toContainEqual(
      expect.objectContaining({
        type: 'password_reset',
        title: 'Password reset',
        description: 'Your password was reset by support. Every signed-in browser was signed out.',
        status: 'success',
      }),
    );
  });
});

describe('support mails a reset link', () => {
  it('ends every session now and mails a link that sets the password', async () => {
    const customer = await createCustomer(t);
    const session = await signIn(t, customer);
    const before = (await t.outbox()).length;
    await operatorSendResetLink(t.deps, customer);

    expect((await refresh(t, session.refreshToken)).statusCode).toBe(401);
    const mail = (await waitForMailCount(t, before + 1)).at(-1)!;
    expect(mail.subject).toBe('Reset your password');
    expect(mail.to).toContain(customer.email);
    expect(mail.text).toContain(`${t.config.PUBLIC_URL}/reset-password?token=`);
    expect((await reset(tokenOf(mail.text), 'Linked@2026')).statusCode).toBe(200);
    const fresh = loginBody(customer, { password: 'Linked@2026' });
    expect((await login(t, fresh, freshIp())).statusCode).toBe(200);
  });
});
