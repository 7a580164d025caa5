import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages, authPaths, twoFactorMessages } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { activityEvents } from '../activity/schema';
import { CODE_MAIL_SUBJECT } from '../auth/mails';
import { NEW_BROWSER_SUBJECT } from '../mail/templates';
import { sessions } from '../auth/schema';
import { freshIp, latestCode, refreshCookieOf, verify } from '../../test/auth';
import {
  appCode,
  codeStepsAway,
  nextStep,
  startSignIn,
  status,
  toStepStart,
  verifyCode,
  verifyWithRecovery,
  withAppOn,
} from '../../test/two-factor';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sessionsOf = (customerId: string) =>
  t.deps.db.select().from(sessions).where(eq(sessions.customerId, customerId));
const codeMailsTo = async (email: string) =>
  (await t.outbox()).filter((m) => m.to === email && m.subject === CODE_MAIL_SUBJECT);

describe('POST /api/auth/login', () => {
  it('keeps the e-mailed code as the default: answers as before, without secondFactor, and mails the code', async () => {
    const customer = await createCustomer(t);
    const { answer, tempToken } = await startSignIn(t, customer);
    expect(answer).toEqual({
      success: true,
      tempToken,
      message: authMessages.codeSent,
    });
    expect(await codeMailsTo(customer.email)).toHaveLength(1);
    const res = await verify(t, tempToken, await latestCode(t), freshIp());
    expect(res.statusCode).toBe(200);
  });

  it('asks an account with the app on for its code, and mails none', async () => {
    const customer = await createCustomer(t);
    await withAppOn(t, customer);
    const { answer } = await startSignIn(t, customer);
    expect(answer.secondFactor).toBe('app');
    expect(answer.message).toBe(twoFactorMessages.appCodeAsked);
    expect(await codeMailsTo(customer.email)).toEqual([]);
  });
});

describe('POST /api/auth/verify-2fa with the app on', () => {
  it("signs in with the app's current code and sets the refresh cookie", async () => {
    const customer = await createCustomer(t);
    const { secret } = await withAppOn(t, customer);
    const { tempToken } = await startSignIn(t, customer);
    const res = await verifyCode(t, tempToken, appCode(t, secret));
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(authMessages.loginSuccessful);
    expect(res.json().user.email).toBe(customer.email);
    expect(refreshCookieOf(res)).toBeDefined();
  });

  it('accepts a code one step before or after now (decision 036)', async () => {
    const customer = await createCustomer(t);
    const { secret } = await withAppOn(t, customer);
    toStepStart(t);
    const before = await startSignIn(t, customer);
    expect((await verifyCode(t, before.tempToken, codeStepsAway(t, secret, -1))).statusCode).toBe(
      200,
    );
    // the step before is used now; the step after is still new
    const after = await startSignIn(t, customer);
    expect((await verifyCode(t, after.tempToken, codeStepsAway(t, secret, 1))).statusCode).toBe(
      200,
    );
  });

  it.each([-2, 2, -40, 1000])('refuses a code %i steps away', async (steps) => {
    const customer = await createCustomer(t);
    const { secret } = await withAppOn(t, customer);
    toStepStart(t);
    const { tempToken } = await startSignIn(t, customer);
    const res = await verifyCode(t, tempToken, codeStepsAway(t, secret, steps));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(authMessages.invalidCode);
    expect(await sessionsOf(customer.id)).toHaveLength(1);
  });

  it('refuses a code used once already, within its window, for a second sign-in', async () => {
    const customer = await createCustomer(t);
    const { secret } = await withAppOn(t, customer);
    const code = appCode(t, secret);
    const first = await startSignIn(t, customer);
    expect((await verifyCode(t, first.tempToken, code)).statusCode).toBe(200);
    const second = await startSignIn(t, customer);
    const replay = await verifyCode(t, second.tempToken, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(authMessages.invalidCode);
    // so is the code of the step before it, now older than the one used
    const older = await verifyCode(t, second.tempToken, codeStepsAway(t, secret, -1));
    expect(older.statusCode).toBe(400);
    // each is a wrong code, recorded as such, as the e-mailed path records them
    const failed = await t.deps.db
      .select()
      .from(activityEvents)
      .where(
        and(eq(activityEvents.customerId, customer.id), eq(activityEvents.type, 'signin_failed')),
      );
    expect(failed).toHaveLength(2);
    nextStep(t);
    expect((await verifyCode(t, second.tempToken, appCode(t, secret))).statusCode).toBe(200);
  });

  it('refuses the e-mailed kind of code: none was sent, and a guess is a wrong code', async () => {
    const customer = await createCustomer(t);
    const { secret } = await withAppOn(t, customer);
    const { tempToken } = await startSignIn(t, customer);
    const wrong = String((Number(appCode(t, secret)) + 1) % 1_000_000).padStart(6, '0');
    const res = await verifyCode(t, tempToken, wrong);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(authMessages.invalidCode);
  });

  it('ends the challenge after five wrong codes, even for the right one after them', async () => {
    const customer = await createCustomer(t);
    const { secret } = await withAppOn(t, customer);
    const { tempToken } = await startSignIn(t, customer);
    const wrong = String((Number(appCode(t, secret)) + 7) % 1_000_000).padStart(6, '0');
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push((await verifyCode(t, tempToken, wrong)).json());
    expect(answers.map((a) => a.message)).toEqual([
      ...Array(4).fill(authMessages.invalidCode),
      authMessages.tooManyCodes,
    ]);
    const right = await verifyCode(t, tempToken, appCode(t, secret));
    expect(right.statusCode).toBe(400);
    expect(right.json().message).toBe(authMessages.tooManyCodes);
  });

  it('signs in with the e-mailed code again once the app is turned off', async () => {
    const customer = await createCustomer(t);
    const { secret, headers } = await withAppOn(t, customer);
    const off = await t.app.inject({
      method: 'POST',
      url: '/api/security/two-factor/disable',
      headers,
      payload: { password: customer.password, code: appCode(t, secret) },
    });
    expect(off.statusCode).toBe(200);
    const { answer, tempToken } = await startSignIn(t, customer);
    expect(answer.secondFactor).toBeUndefined();
    expect(answer.message).toBe(authMessages.codeSent);
    expect((await verify(t, tempToken, await latestCode(t), freshIp())).statusCode).toBe(200);
  });
});

describe('POST /api/auth/resend-verification with the app on', () => {
  it('sends no code by e-mail and says why', async () => {
    const customer = await createCustomer(t);
    await withAppOn(t, customer);
    const { tempToken } = await startSignIn(t, customer);
    t.clock.advance(61_000);
    const res = await t.app.inject({
      method: 'POST',
      url: authPaths.resendVerification,
      payload: { tempToken },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(twoFactorMessages.noEmailCode);
    expect(await codeMailsTo(customer.email)).toEqual([]);
  });
});

describe('POST /api/auth/verify-recovery-code', () => {
  it('signs in once with each recovery code, and never twice with one', async () => {
    const customer = await createCustomer(t);
    const { recoveryCodes, headers } = await withAppOn(t, customer);
    for (const [i, code] of recoveryCodes.entries()) {
      const { tempToken } = await startSignIn(t, customer);
      const res = await verifyWithRecovery(t, tempToken, code);
      expect(res.statusCode).toBe(200);
      expect(refreshCookieOf(res)).toBeDefined();
      expect((await status(t, headers)).recoveryCodesLeft).toBe(9 - i);
    }
    const { tempToken } = await startSignIn(t, customer);
    for (const code of recoveryCodes.slice(0, 4)) {
      const again = await verifyWithRecovery(t, tempToken, code);
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe(authMessages.invalidCode);
    }
  });

  it('tells of a browser not seen before, as the e-mailed code does', async () => {
    const customer = await createCustomer(t);
    const { recoveryCodes } = await withAppOn(t, customer);
    const notices = async () =>
      (await t.outbox()).filter(
        (m) => m.to === customer.email && m.subject === NEW_BROWSER_SUBJECT,
      );
    // the account's first browser is simply remembered; a second one, without its cookie, is new
    for (const code of recoveryCodes.slice(0, 2)) {
      const { tempToken } = await startSignIn(t, customer);
      expect((await verifyWithRecovery(t, tempToken, code)).statusCode).toBe(200);
    }
    expect(await notices()).toHaveLength(1);
  });

  it('takes a recovery code in capitals, with spaces for the hyphen', async () => {
    const customer = await createCustomer(t);
    const { recoveryCodes } = await withAppOn(t, customer);
    const { tempToken } = await startSignIn(t, customer);
    const typed = recoveryCodes[0]!.toUpperCase().replace('-', ' ');
    expect((await verifyWithRecovery(t, tempToken, typed)).statusCode).toBe(200);
  });

  it("refuses another customer's recovery code", async () => {
    const owner = await createCustomer(t);
    const other = await createCustomer(t);
    const { recoveryCodes } = await withAppOn(t, owner);
    await withAppOn(t, other);
    const { tempToken } = await startSignIn(t, other);
    const res = await verifyWithRecovery(t, tempToken, recoveryCodes[0]!);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(authMessages.invalidCode);
    // and it still works for its owner
    const own = await startSignIn(t, owner);
    expect((await verifyWithRecovery(t, own.tempToken, recoveryCodes[0]!)).statusCode).toBe(200);
  });

  it('counts a wrong recovery code as a failed sign-in, and ends the challenge after five', async () => {
    const customer = await createCustomer(t);
    const { recoveryCodes } = await withAppOn(t, customer);
    const { tempToken } = await startSignIn(t, customer);
    const answers = [];
    for (let i = 0; i < 5; i += 1) {
      answers.push((await verifyWithRecovery(t, tempToken, 'zzzzz-zzzzz')).json());
    }
    expect(answers.map((a) => a.message)).toEqual([
      ...Array(4).fill(authMessages.invalidCode),
      authMessages.tooManyCodes,
    ]);
    const failed = await t.deps.db
      .select()
      .from(activityEvents)
      .where(
        and(eq(activityEvents.customerId, customer.id), eq(activityEvents.type, 'signin_failed')),
      );
    expect(failed).toHaveLength(5);
    const right = await verifyWithRecovery(t, tempToken, recoveryCodes[0]!);
    expect(right.statusCode).toBe(400);
    expect(right.json().message).toBe(authMessages.tooManyCodes);
  });

  it('refuses a recovery code for an account that takes e-mailed codes', async () => {
    const customer = await createCustomer(t);
    const { tempToken } = await startSignIn(t, customer);
    const res = await verifyWithRecovery(t, tempToken, 'abcde-fghjk');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(authMessages.invalidCode);
  });

  it.each([
    ['no body', undefined],
    ['no recovery code', { tempToken: 'x' }],
    ['an empty recovery code', { tempToken: 'x', recoveryCode: ' ' }],
    ['a recovery code of 41 characters', { tempToken: 'x', recoveryCode: 'a'.repeat(41) }],
    ['a number', { tempToken: 'x', recoveryCode: 12345 }],
    ['no tempToken', { recoveryCode: 'abcde-fghjk' }],
  ])('answers 400 for %s', async (_, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify-recovery-code',
      ...(payload ? { payload } : {}),
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it('answers an unknown sign-in as expired', async () => {
    const res = await verifyWithRecovery(t, 'no-such-token', 'abcde-fghjk');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(authMessages.codeExpired);
  });
});
