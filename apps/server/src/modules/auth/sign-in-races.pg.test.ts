import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { activityEvents } from '../activity/schema';
import { CODE_MAIL_SUBJECT, PASSWORD_CHANGED_SUBJECT, RESET_MAIL_SUBJECT } from './mails';
import { sessions } from './schema';
import {
  freshIp,
  latestCode,
  login,
  loginBody,
  requestResetLink,
  resetPassword,
  verify,
  waitForMailCount,
} from '../../test/auth';

// PostgreSQL only: each request below runs on its own connection, so they really interleave and
// only the conditions in the claiming statements keep the effect single.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const AT_ONCE = 20;
const together = <T>(send: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: AT_ONCE }, (_, i) => send(i)));

const statuses = (answers: { statusCode: number }[]) => answers.map((a) => a.statusCode).sort();

const activitiesOf = (customerId: string, type: string) =>
  t.deps.db
    .select()
    .from(activityEvents)
    .where(and(eq(activityEvents.customerId, customerId), eq(activityEvents.type, type)));

async function mailsTo(email: string, subject: string) {
  return (await t.outbox()).filter((m) => m.to === email && m.subject === subject);
}

async function startChallenge(customer: Awaited<ReturnType<typeof createCustomer>>) {
  const res = await login(t, loginBody(customer), freshIp());
  expect(res.statusCode).toBe(200);
  return { tempToken: res.json().tempToken as string, code: await latestCode(t) };
}

describe('POST /api/auth/verify-2fa', () => {
  it('opens one session when the right code arrives twenty times at once', async () => {
    const customer = await createCustomer(t);
    const { tempToken, code } = await startChallenge(customer);
    const answers = await together(() => verify(t, tempToken, code, freshIp()));
    expect(statuses(answers)).toEqual([...Array(AT_ONCE - 1).fill(400), 200].sort());
    const opened = await t.deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.customerId, customer.id));
    expect(opened).toHaveLength(1);
    expect(await activitiesOf(customer.id, 'signin')).toHaveLength(1);
  });
});

describe('POST /api/auth/resend-verification', () => {
  it('mails one new code when twenty resends arrive at once', async () => {
    const customer = await createCustomer(t);
    const { tempToken } = await startChallenge(customer);
    t.clock.advance(60_000);
    const answers = await together(() =>
      t.app.inject({
        method: 'POST',
        url: authPaths.resendVerification,
        payload: { tempToken },
        remoteAddress: freshIp(),
      }),
    );
    expect(statuses(answers)).toEqual([200, ...Array(AT_ONCE - 1).fill(429)]);
    // the sign-in's code and the one resent
    expect(await mailsTo(customer.email, CODE_MAIL_SUBJECT)).toHaveLength(2);
  });
});

describe('POST /api/users/reset-password', () => {
  it('sets the password once when one link is used twenty times at once', async () => {
    const customer = await createCustomer(t);
    const before = (await t.outbox()).length;
    const forgot = await requestResetLink(t, customer.email);
    expect(forgot.statusCode).toBe(200);
    const mail = (await waitForMailCount(t, before + 1)).at(-1)!;
    expect(mail.subject).toBe(RESET_MAIL_SUBJECT);
    const token = new URL(
      mail.text.match(/(\S+\/reset-password\?token=\S+)/)![1]!,
    ).searchParams.get('token')!;

    const answers = await together((i) => resetPassword(t, token, `Parallel@${i}`));
    expect(statuses(answers)).toEqual([200, ...Array(AT_ONCE - 1).fill(400)]);
    expect(await activitiesOf(customer.id, 'password_reset')).toHaveLength(1);
    expect(await mailsTo(customer.email, PASSWORD_CHANGED_SUBJECT)).toHaveLength(1);
    // the password that holds is the one the single success set
    const winner = answers.findIndex((a) => a.statusCode === 200);
    const signIn = await login(
      t,
      loginBody(customer, { password: `Parallel@${winner}` }),
      freshIp(),
    );
    expect(signIn.statusCode).toBe(200);
  });
});
