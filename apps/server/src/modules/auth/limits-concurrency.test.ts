import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import * as password from '../../lib/password';
import { activityEvents } from '../activity/schema';
import { accountThrottles } from './schema';
import * as secrets from './secrets';
import { freshIp, latestCode, login, loginBody, verify, wrongCode } from '../../test/auth';

type PasswordModule = typeof password;
type SecretsModule = typeof secrets;

// counts the evaluations each limit lets through, without changing them
vi.mock('../../lib/password', async (importOriginal) => {
  const real = await importOriginal<PasswordModule>();
  return {
    ...real,
    verifyPassword: vi.fn(real.verifyPassword),
    verifyAgainstDummy: vi.fn(real.verifyAgainstDummy),
  };
});
vi.mock('./secrets', async (importOriginal) => {
  const real = await importOriginal<SecretsModule>();
  return { ...real, sameHash: vi.fn(real.sameHash) };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  vi.mocked(password.verifyPassword).mockClear();
  vi.mocked(password.verifyAgainstDummy).mockClear();
  vi.mocked(secrets.sameHash).mockClear();
});

const AT_ONCE = 100;
const passwordsVerified = () =>
  vi.mocked(password.verifyPassword).mock.calls.length +
  vi.mocked(password.verifyAgainstDummy).mock.calls.length;
const codesCompared = () => vi.mocked(secrets.sameHash).mock.calls.length;

/** Sends `AT_ONCE` requests together, so that on PostgreSQL they interleave. */
const together = <T>(send: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: AT_ONCE }, (_, i) => send(i)));

/** How many answers had each status and message. */
function tally(responses: { statusCode: number; json(): { message?: string } }[]) {
  const counts: Record<string, number> = {};
  for (const res of responses) {
    const key = `${res.statusCode} ${res.json().message ?? ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

const invalidLogin = '401 Invalid login details. Please check and try again.';
const waitOneMinute = '429 Too many attempts. Please wait 1 minute and try again.';
const waitFifteenMinutes = '429 Too many attempts. Please wait 15 minutes and try again.';
const invalidCode = '400 Invalid verification code';
const tooManyCodes = '400 Too many incorrect codes. Please sign in again.';

async function startChallenge(customer: Awaited<ReturnType<typeof createCustomer>>) {
  const res = await login(t, loginBody(customer), freshIp());
  expect(res.statusCode).toBe(200);
  return { tempToken: res.json().tempToken as string, code: await latestCode(t) };
}

const resend = (tempToken: string) =>
  t.app.inject({
    method: 'POST',
    url: authPaths.resendVerification,
    payload: { tempToken },
    remoteAddress: freshIp(),
  });

describe('sign-in limits under 100 simultaneous requests', () => {
  it('verifies five wrong passwords for one account and refuses the rest before hashing', async () => {
    const customer = await createCustomer(t);
    const answers = await together(() =>
      login(t, loginBody(customer, { password: 'Wrong@123' }), freshIp()),
    );
    expect(passwordsVerified()).toBe(5);
    expect(tally(answers)).toEqual({ [invalidLogin]: 5, [waitOneMinute]: AT_ONCE - 5 });
    const [row] = await t.deps.db
      .select()
      .from(accountThrottles)
      .where(eq(accountThrottles.email, customer.email));
    expect(row!.consecutiveFailures).toBe(5);
  });

  it('reaches the lock at 100 failures with one verification, not a burst', async () => {
    const customer = await createCustomer(t);
    await t.deps.db.insert(accountThrottles).values({
      email: customer.email,
      consecutiveFailures: 99,
      updatedAt: t.clock.now(),
    });
    await together(() => login(t, loginBody(customer, { password: 'Wrong@123' }), freshIp()));
    expect(passwordsVerified()).toBe(1);
    const [row] = await t.deps.db
      .select()
      .from(accountThrottles)
      .where(eq(accountThrottles.email, customer.email));
    expect(row).toMatchObject({ consecutiveFailures: 100, lockedAt: expect.any(Date) });
  });

  it('verifies twenty failed sign-ins from one address, whatever the accounts', async () => {
    const ip = freshIp();
    const customer = await createCustomer(t);
    const answers = await together((i) =>
      login(t, loginBody(customer, { email: `guess-${i}-${ip}@example.test` }), ip),
    );
    expect(passwordsVerified()).toBe(20);
    expect(tally(answers)).toEqual({ [invalidLogin]: 20, [waitFifteenMinutes]: AT_ONCE - 20 });
  });

  it('compares five wrong codes for one challenge', async () => {
    const customer = await createCustomer(t);
    const { tempToken, code } = await startChallenge(customer);
    vi.mocked(secrets.sameHash).mockClear();
    const answers = await together(() => verify(t, tempToken, wrongCode(code), freshIp()));
    expect(codesCompared()).toBe(5);
    expect(tally(answers)).toEqual({ [invalidCode]: 4, [tooManyCodes]: AT_ONCE - 4 });
    const failures = await t.deps.db
      .select()
      .from(activityEvents)
      .where(
        and(eq(activityEvents.customerId, customer.id), eq(activityEvents.type, 'signin_failed')),
      );
    expect(failures).toHaveLength(5);
  });

  it('compares twenty wrong codes from one address across many challenges', async () => {
    const ip = freshIp();
    const customer = await createCustomer(t);
    // four wrong codes a challenge stay under its own limit of five
    const challenges: Awaited<ReturnType<typeof startChallenge>>[] = [];
    for (let i = 0; i < AT_ONCE / 4; i += 1) challenges.push(await startChallenge(customer));
    vi.mocked(secrets.sameHash).mockClear();
    const answers = await together((i) => {
      const { tempToken, code } = challenges[i % challenges.length]!;
      return verify(t, tempToken, wrongCode(code), ip);
    });
    expect(codesCompared()).toBe(20);
    expect(tally(answers)).toEqual({ [invalidCode]: 20, [waitFifteenMinutes]: AT_ONCE - 20 });
  });

  it('signs in once when the right code arrives many times at once', async () => {
    const customer = await createCustomer(t);
    const { tempToken, code } = await startChallenge(customer);
    const answers = await together(() => verify(t, tempToken, code, freshIp()));
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(1);
    expect(answers.every((res) => res.statusCode === 200 || res.statusCode === 400)).toBe(true);
    const signIns = await t.deps.db
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.customerId, customer.id), eq(activityEvents.type, 'signin')));
    expect(signIns).toHaveLength(1);
  });

  it('mails one new code for simultaneous resends, and asks the others to wait', async () => {
    const customer = await createCustomer(t);
    const { tempToken } = await startChallenge(customer);
    const before = (await t.outbox()).length;
    t.clock.advance(60_000);
    const answers = await together(() => resend(tempToken));
    expect(await t.outbox()).toHaveLength(before + 1);
    expect(tally(answers)).toEqual({
      '200 Verification code sent to your email': 1,
      '429 Please wait 60 seconds before requesting a new code.': AT_ONCE - 1,
    });
  });

  it('takes ten reset requests from one address and refuses the rest', async () => {
    const ip = freshIp();
    const answers = await together(() =>
      t.app.inject({
        method: 'POST',
        url: authPaths.forgotPassword,
        payload: { email: 'nobody-here@example.test' },
        remoteAddress: ip,
      }),
    );
    expect(tally(answers)).toEqual({
      '200 If an account exists for that e-mail, a reset link has been sent.': 10,
      [waitFifteenMinutes]: AT_ONCE - 10,
    });
  });
});
