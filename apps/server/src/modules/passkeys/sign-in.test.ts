import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authMessages,
  authPaths,
  passkeyMessages,
  PASSKEY_CHALLENGE_TTL_MS,
  RESEND_INTERVAL_MS,
  twoFactorMessages,
  twoFactorPaths,
} from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { freshIp } from '../../test/auth';
import { createCustomer } from '../../test/customers';
import {
  newAuthenticator,
  signatureFor,
  signInOptionsFor,
  verifyPasskey,
  withPasskey,
} from '../../test/passkeys';
import {
  appCode,
  post,
  startSignIn,
  status,
  verifyCode,
  verifyWithRecovery,
  withAppOn,
} from '../../test/two-factor';
import { passkeys } from './schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const rowOf = async (customerId: string) =>
  (await t.deps.db.select().from(passkeys).where(eq(passkeys.customerId, customerId)))[0]!;

async function customerWithPasskey() {
  const customer = await createCustomer(t);
  const { authenticator, recoveryCodes } = await withPasskey(t, customer);
  return { customer, authenticator, recoveryCodes: recoveryCodes! };
}

describe('sign-in with a passkey', () => {
  it('asks for the passkey after the password, sends no code, and signs in with its signature', async () => {
    const { customer, authenticator } = await customerWithPasskey();
    const before = (await t.outbox()).length;
    const { tempToken, answer } = await startSignIn(t, customer);
    expect(answer).toEqual({
      success: true,
      tempToken,
      message: passkeyMessages.passkeyAsked,
      secondFactor: 'passkey',
    });
    const options = await signInOptionsFor(t, tempToken);
    expect(options.statusCode).toBe(200);
    expect(options.json().data).toMatchObject({
      rpId: new URL(t.deps.config.PUBLIC_URL).hostname,
      allowCredentials: [{ id: authenticator.id, type: 'public-key', transports: ['internal'] }],
      timeout: PASSKEY_CHALLENGE_TTL_MS,
    });
    const res = await verifyPasskey(t, tempToken, authenticator.signIn(options.json().data));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, user: { email: customer.email } });
    expect(res.cookies.map((c) => c.name)).toContain('__Host-refresh');
    expect(await rowOf(customer.id)).toMatchObject({ signCount: 1, lastUsedAt: t.clock.now() });
    const mails = (await t.outbox()).slice(before).filter((m) => m.to === customer.email);
    expect(mails.map((m) => m.subject)).not.toContain('Your verification code');
  });

  it('sends no code on request either', async () => {
    const { customer } = await customerWithPasskey();
    const { tempToken } = await startSignIn(t, customer);
    t.clock.advance(RESEND_INTERVAL_MS);
    const res = await t.app.inject({
      method: 'POST',
      url: authPaths.resendVerification,
      payload: { tempToken },
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(passkeyMessages.noEmailCode);
  });

  it('refuses a signature for another origin or relying party', async () => {
    const { customer, authenticator } = await customerWithPasskey();
    for (const bent of [{ origin: 'https://portal.example.evil' }, { rpId: 'example.evil' }]) {
      const { tempToken } = await startSignIn(t, customer);
      const res = await verifyPasskey(
        t,
        tempToken,
        await signatureFor(t, tempToken, authenticator, bent),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(passkeyMessages.notVerified);
    }
    expect((await rowOf(customer.id)).lastUsedAt).toBeNull();
  });

  it('refuses a replayed signature and a challenge handed to another sign-in', async () => {
    const { customer, authenticator } = await customerWithPasskey();
    const first = await startSignIn(t, customer);
    const signed = await signatureFor(t, first.tempToken, authenticator);
    expect((await verifyPasskey(t, first.tempToken, signed)).statusCode).toBe(200);

    // the same signature on a new sign-in: its challenge was used and belongs to the first
    const second = await startSignIn(t, customer);
    const replayed = await verifyPasskey(t, second.tempToken, signed);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().message).toBe(passkeyMessages.challengeExpired);

    // a fresh signature over the first sign-in's options, sent to the second
    const third = await startSignIn(t, customer);
    const crossed = await signatureFor(t, third.tempToken, authenticator);
    const fourth = await startSignIn(t, customer);
    expect((await verifyPasskey(t, fourth.tempToken, crossed)).statusCode).toBe(400);
    expect((await verifyPasskey(t, third.tempToken, crossed)).statusCode).toBe(200);
  });

  it('refuses a challenge answered too late', async () => {
    const { customer, authenticator } = await customerWithPasskey();
    const { tempToken } = await startSignIn(t, customer);
    const signed = await signatureFor(t, tempToken, authenticator);
    t.clock.advance(PASSKEY_CHALLENGE_TTL_MS);
    const res = await verifyPasskey(t, tempToken, signed);
    expect(res.statusCode).toBe(400);
  });

  it("refuses another customer's passkey", async () => {
    const mine = await customerWithPasskey();
    const theirs = await customerWithPasskey();
    const { tempToken } = await startSignIn(t, mine.customer);
    const options = (await signInOptionsFor(t, tempToken)).json().data;
    const res = await verifyPasskey(t, tempToken, theirs.authenticator.signIn(options));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(passkeyMessages.notVerified);
    expect((await rowOf(theirs.customer.id)).signCount).toBe(0);
  });

  it("refuses a cloned authenticator's counter that does not move on", async () => {
    const { customer, authenticator } = await customerWithPasskey();
    const first = await startSignIn(t, customer);
    expect(
      (
        await verifyPasskey(
          t,
          first.tempToken,
          await signatureFor(t, first.tempToken, authenticator),
        )
      ).statusCode,
    ).toBe(200);
    const clone = await startSignIn(t, customer);
    const res = await verifyPasskey(
      t,
      clone.tempToken,
      await signatureFor(t, clone.tempToken, authenticator, { counter: authenticator.counter }),
    );
    expect(res.statusCode).toBe(400);
    expect((await rowOf(customer.id)).signCount).toBe(1);
  });

  it('signs in once when the same signature is sent many times at once', async () => {
    const { customer, authenticator } = await customerWithPasskey();
    const { tempToken } = await startSignIn(t, customer);
    const signed = await signatureFor(t, tempToken, authenticator);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => verifyPasskey(t, tempToken, signed)),
    );
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(1);
    expect(answers.every((res) => res.statusCode === 200 || res.statusCode === 400)).toBe(true);
  });

  it('takes no e-mailed or app code for a passkey account, but takes a recovery code once', async () => {
    const { customer, recoveryCodes } = await customerWithPasskey();
    const { tempToken } = await startSignIn(t, customer);
    const typed = await verifyCode(t, tempToken, '123456');
    expect(typed.statusCode).toBe(400);
    expect(typed.json().message).toBe(authMessages.invalidCode);

    expect((await verifyWithRecovery(t, tempToken, recoveryCodes[0]!)).statusCode).toBe(200);
    const again = await startSignIn(t, customer);
    expect((await verifyWithRecovery(t, again.tempToken, recoveryCodes[0]!)).statusCode).toBe(400);
  });

  it('asks for the passkey first where the app is on too, and still takes the app code', async () => {
    const customer = await createCustomer(t);
    const { secret } = await withAppOn(t, customer);
    await withPasskey(t, customer);
    const { answer, tempToken } = await startSignIn(t, customer);
    expect(answer.secondFactor).toBe('passkey');
    expect((await verifyCode(t, tempToken, appCode(t, secret))).statusCode).toBe(200);
  });

  it('counts refused signatures as wrong codes: five, then the sign-in is closed', async () => {
    const { customer } = await customerWithPasskey();
    const { tempToken } = await startSignIn(t, customer);
    const other = newAuthenticator(t);
    const messages = [];
    for (let i = 0; i < 5; i += 1) {
      const options = (await signInOptionsFor(t, tempToken)).json().data;
      messages.push((await verifyPasskey(t, tempToken, other.signIn(options))).json().message);
    }
    expect(messages.slice(0, 4)).toEqual(Array(4).fill(passkeyMessages.notVerified));
    expect(messages[4]).toBe(authMessages.tooManyCodes);
    const late = await signInOptionsFor(t, tempToken);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(authMessages.tooManyCodes);
  });

  it('answers options only for a pending sign-in of an account with a passkey', async () => {
    const plain = await createCustomer(t);
    const { tempToken } = await startSignIn(t, plain);
    const none = await signInOptionsFor(t, tempToken);
    expect(none.statusCode).toBe(400);
    const unknown = await signInOptionsFor(t, 'no-such-token');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(authMessages.codeExpired);
  });

  it('keeps asking for the passkey, and the recovery codes, when the app is turned off', async () => {
    const customer = await createCustomer(t);
    const { headers, recoveryCodes } = await withAppOn(t, customer);
    await withPasskey(t, customer);
    const res = await post(t, twoFactorPaths.disable, headers, {
      password: customer.password,
      code: recoveryCodes[0]!,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(twoFactorMessages.disabledPasskeyStays);
    expect(await status(t, headers)).toMatchObject({
      secondFactor: 'passkey',
      recoveryCodesLeft: 9,
    });
    const notice = (await t.outbox()).filter((m) => m.to === customer.email).at(-1)!;
    expect(notice.subject).toBe('Authenticator app turned off');
    expect(notice.text).toContain('it asks for your passkey.');
    const { tempToken } = await startSignIn(t, customer);
    expect((await verifyWithRecovery(t, tempToken, recoveryCodes[1]!)).statusCode).toBe(200);
  });
});
