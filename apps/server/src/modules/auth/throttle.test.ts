import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { accountThrottles } from './schema';
import {
  afterFirstDelete,
  freshIp,
  latestCode,
  login,
  loginBody,
  requestResetLink,
  resetPassword,
  verify,
  waitForMailCount,
  wrongCode,
} from '../../test/auth';
import { reserveRateLimitHit } from '../../lib/rate-limit';
import { reserveAccountAttempt, waitAfterFailures } from './throttle';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const minute = 60_000;

async function failLogins(customer: Awaited<ReturnType<typeof createCustomer>>, n: number) {
  for (let i = 0; i < n; i += 1) {
    const res = await login(t, loginBody(customer, { password: 'Wrong@123' }), freshIp());
    expect(res.statusCode).toBe(401);
  }
}

describe('sign-in throttling per account', () => {
  it('waits 1 minute after five failures, then 2, 4, 8 and at most 15', () => {
    expect([4, 5, 6, 7, 8, 9, 20, 99].map(waitAfterFailures)).toEqual([
      0,
      minute,
      2 * minute,
      4 * minute,
      8 * minute,
      15 * minute,
      15 * minute,
      15 * minute,
    ]);
  });

  it('refuses even the right details during the wait, in plain words', async () => {
    const customer = await createCustomer(t);
    await failLogins(customer, 5);
    const res = await login(t, loginBody(customer), freshIp());
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.json()).toEqual({
      success: false,
      message: 'Too many attempts. Please wait 1 minute and try again.',
      error: 'throttled',
    });
    t.clock.advance(minute);
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(200);
  });

  it('doubles the wait with each further failure', async () => {
    const customer = await createCustomer(t);
    await failLogins(customer, 5);
    t.clock.advance(minute);
    await failLogins(customer, 1);
    const second = await login(t, loginBody(customer), freshIp());
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe('120');
    expect(second.json().message).toBe('Too many attempts. Please wait 2 minutes and try again.');
    t.clock.advance(2 * minute);
    await failLogins(customer, 1);
    expect((await login(t, loginBody(customer), freshIp())).headers['retry-after']).toBe('240');
  });

  it('does not count a right password as a failure', async () => {
    const customer = await createCustomer(t);
    await failLogins(customer, 4);
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(200);
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(200);
    await failLogins(customer, 1);
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(429);
  });

  it('gives back the count of a right password that set no wait, keeping the failures before it', async () => {
    const customer = await createCustomer(t);
    await failLogins(customer, 2);
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(200);
    const [row] = await t.deps.db
      .select()
      .from(accountThrottles)
      .where(eq(accountThrottles.email, customer.email));
    expect(row).toMatchObject({ consecutiveFailures: 2, blockedUntil: null, lockedAt: null });
  });

  it('lets the right password through after the wait without starting a new one', async () => {
    const customer = await createCustomer(t);
    await failLogins(customer, 5);
    t.clock.advance(minute);
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(200);
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(200);
    // the five failures still stand: the next one waits 2 minutes
    await failLogins(customer, 1);
    expect((await login(t, loginBody(customer), freshIp())).headers['retry-after']).toBe('120');
  });

  it('treats an unknown e-mail exactly like a known one', async () => {
    const ghost = { ...(await createCustomer(t)), email: 'ghost-account@example.test' };
    await failLogins(ghost, 5);
    const res = await login(t, loginBody(ghost), freshIp());
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe('Too many attempts. Please wait 1 minute and try again.');
  });

  it('starts counting again after a completed sign-in', async () => {
    const customer = await createCustomer(t);
    await failLogins(customer, 4);
    const ip = freshIp();
    const first = await login(t, loginBody(customer), ip);
    expect((await verify(t, first.json().tempToken, await latestCode(t), ip)).statusCode).toBe(200);
    await failLogins(customer, 4);
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(200);
  });

  it('counts wrong codes as failures too', async () => {
    const customer = await createCustomer(t);
    const ip = freshIp();
    const first = await login(t, loginBody(customer), ip);
    const code = await latestCode(t);
    for (let i = 0; i < 5; i += 1) await verify(t, first.json().tempToken, wrongCode(code), ip);
    const res = await login(t, loginBody(customer), freshIp());
    expect(res.statusCode).toBe(429);
  });

  it('locks the account at 100 failures until the password is reset', async () => {
    const customer = await createCustomer(t);
    await failLogins(customer, 1);
    // the first 99 failures would take a day of waiting; start just below the limit
    await t.deps.db
      .update(accountThrottles)
      .set({ consecutiveFailures: 99, blockedUntil: null })
      .where(eq(accountThrottles.email, customer.email));
    await failLogins(customer, 1);
    t.clock.advance(24 * 60 * minute);
    const res = await login(t, loginBody(customer), freshIp());
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({
      success: false,
      message:
        'This account is locked after too many failed attempts. Please reset your password using Forgot password.',
      error: 'locked',
    });

    const before = (await t.outbox()).length;
    expect((await requestResetLink(t, customer.email)).statusCode).toBe(200);
    const link = (await waitForMailCount(t, before + 1))
      .at(-1)!
      .text.match(/\S+\/reset-password\?token=\S+/)![0];
    const token = new URL(link).searchParams.get('token')!;
    expect((await resetPassword(t, token, 'Unlocked@2026')).statusCode).toBe(200);
    const unlocked = loginBody(customer, { password: 'Unlocked@2026' });
    expect((await login(t, unlocked, freshIp())).statusCode).toBe(200);
  });

  it('rounds a wait that ends within a minute up, in its words and in Retry-After', async () => {
    const customer = await createCustomer(t);
    await failLogins(customer, 5);
    t.clock.advance(minute);
    await failLogins(customer, 1);
    // of the 2 minutes' wait, 1 minute 29.5 seconds are left
    t.clock.advance(30_500);
    const res = await login(t, loginBody(customer), freshIp());
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('90');
    expect(res.json().message).toBe('Too many attempts. Please wait 2 minutes and try again.');
  });
});

describe('giving back the count of an attempt that did not fail', () => {
  it("keeps an account's failure that arrives while a right attempt gives its count back", async () => {
    const email = `give-back-${freshIp()}@example.test`;
    const failure = () => reserveAccountAttempt(t.deps.db, t.clock, email);
    // the right attempt's give-back removes the row that counted only it; the failure comes next
    const right = await reserveAccountAttempt(afterFirstDelete(t.deps.db, failure), t.clock, email);
    await right.giveBack();
    for (let i = 0; i < 4; i += 1) await failure();
    await expect(failure()).rejects.toMatchObject({ statusCode: 429, error: 'throttled' });
  });

  it("keeps an address's failure that arrives while a right attempt gives its count back", async () => {
    const ip = freshIp();
    const failure = () => reserveRateLimitHit(t.deps.db, t.clock, 'login', ip);
    const right = await reserveRateLimitHit(
      afterFirstDelete(t.deps.db, failure),
      t.clock,
      'login',
      ip,
    );
    await right.giveBack();
    for (let i = 0; i < 19; i += 1) await failure();
    await expect(failure()).rejects.toMatchObject({ statusCode: 429, error: 'throttled' });
  });
});

describe('rate limits per client address', () => {
  it('stops a guesser after 20 failed sign-ins in 15 minutes, whatever the account', async () => {
    const ip = freshIp();
    const customer = await createCustomer(t);
    for (let i = 0; i < 20; i += 1) {
      const res = await login(t, loginBody(customer, { email: `guess${i}@example.test` }), ip);
      expect(res.statusCode).toBe(401);
    }
    const blocked = await login(t, loginBody(customer), ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe(String(15 * 60));
    expect(blocked.json().message).toBe('Too many attempts. Please wait 15 minutes and try again.');
    expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(200);
    t.clock.advance(15 * minute);
    expect((await login(t, loginBody(customer), ip)).statusCode).toBe(200);
  });

  it("counts an address's wait from the start of its window", async () => {
    const ip = freshIp();
    const customer = await createCustomer(t);
    for (let i = 0; i < 20; i += 1) {
      await login(t, loginBody(customer, { email: `window${i}@example.test` }), ip);
    }
    t.clock.advance(5 * minute);
    const blocked = await login(t, loginBody(customer), ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe(String(10 * 60));
    expect(blocked.json().message).toBe('Too many attempts. Please wait 10 minutes and try again.');
  });

  it('lets an office sign in many people from one address', async () => {
    const ip = freshIp();
    for (let i = 0; i < 25; i += 1) {
      const customer = await createCustomer(t);
      const res = await login(t, loginBody(customer), ip);
      expect(res.statusCode).toBe(200);
      expect((await verify(t, res.json().tempToken, await latestCode(t), ip)).statusCode).toBe(200);
    }
    // fifty password hashes and twenty-five mails: more than the default on a busy machine
  }, 120_000);

  it("does not count against the address what an account's wait refused", async () => {
    const ip = freshIp();
    const customer = await createCustomer(t);
    for (let i = 0; i < 5; i += 1) {
      await login(t, loginBody(customer, { password: 'Wrong@123' }), ip);
    }
    for (let i = 0; i < 20; i += 1) {
      expect((await login(t, loginBody(customer), ip)).statusCode).toBe(429);
    }
    const other = await createCustomer(t);
    const res = await login(t, loginBody(other, { password: 'Wrong@123' }), ip);
    expect(res.statusCode).toBe(401);
  });

  it('stops code guessing after 20 wrong codes in 15 minutes', async () => {
    const ip = freshIp();
    for (let round = 0; round < 4; round += 1) {
      const customer = await createCustomer(t);
      const res = await login(t, loginBody(customer), ip);
      const code = await latestCode(t);
      for (let i = 0; i < 5; i += 1) await verify(t, res.json().tempToken, wrongCode(code), ip);
    }
    const customer = await createCustomer(t);
    const res = await login(t, loginBody(customer), ip);
    const blocked = await verify(t, res.json().tempToken, await latestCode(t), ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe('Too many attempts. Please wait 15 minutes and try again.');
  });

  it('stops reset requests after 10 in 15 minutes', async () => {
    const ip = freshIp();
    const forgot = () =>
      t.app.inject({
        method: 'POST',
        url: authPaths.forgotPassword,
        payload: { email: 'someone@example.test' },
        remoteAddress: ip,
      });
    for (let i = 0; i < 10; i += 1) expect((await forgot()).statusCode).toBe(200);
    const blocked = await forgot();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe(String(15 * 60));
  });
});
