import { generateSync } from 'otplib';
import { TOTP_PERIOD_SECONDS, authPaths, twoFactorPaths } from '@portal/contract';
import type { Database } from '../db/client';
import type { TestApp } from './app';
import { authHeaders } from './customers';
import type { Customer } from '../modules/users/schema';
import { freshIp, login, loginBody } from './auth';

type TestCustomer = Customer & { password: string };
type Headers = Record<string, string>;

export const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

/** The app's code for `secret` at `at` (the test clock's now by default), as a phone computes it. */
export const appCode = (t: TestApp, secret: string, at = t.clock.now()) =>
  generateSync({ secret, epoch: Math.floor(at.getTime() / 1000), period: TOTP_PERIOD_SECONDS });

/** The code `steps` time steps away from now. */
export const codeStepsAway = (t: TestApp, secret: string, steps: number) =>
  appCode(t, secret, new Date(t.clock.now().getTime() + steps * STEP_MS));

/** The clock to the start of a time step, so that the step's neighbours are one step away. */
export function toStepStart(t: TestApp) {
  const now = t.clock.now().getTime();
  t.clock.set(new Date(now - (now % STEP_MS) + STEP_MS));
}

/** The next time step, whose code no earlier request has used. */
export const nextStep = (t: TestApp) => t.clock.advance(STEP_MS);

/**
 * `db`, except that its first transaction waits for `between` before it starts: another request
 * lands between a code's check and the statement that uses it.
 */
export function beforeFirstTransaction(db: Database, between: () => Promise<unknown>): Database {
  let done: Promise<unknown> | undefined;
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'transaction') return Reflect.get(target, property, receiver);
      return async (...args: Parameters<Database['transaction']>) => {
        done ??= between();
        await done;
        return target.transaction(...args);
      };
    },
  });
}

export const post = (t: TestApp, url: string, headers: Headers, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

export const status = async (t: TestApp, headers: Headers) =>
  (await t.app.inject({ method: 'GET', url: twoFactorPaths.status, headers })).json().data as {
    secondFactor: string;
    enabledAt: string | null;
    recoveryCodesLeft: number;
    invitationDismissed: boolean;
  };

export async function startSetup(t: TestApp, headers: Headers) {
  const res = await post(t, twoFactorPaths.setup, headers);
  if (res.statusCode !== 200) throw new Error(`set-up failed: ${res.body}`);
  return res.json().data as { secret: string; otpauthUri: string; qrCode: string };
}

/** Set-up and the first code: the app is on; answers its secret, recovery codes and headers. */
export async function withAppOn(t: TestApp, customer: TestCustomer) {
  const headers = await authHeaders(t, customer.id);
  const { secret } = await startSetup(t, headers);
  const res = await post(t, twoFactorPaths.enable, headers, {
    password: customer.password,
    code: appCode(t, secret),
  });
  if (res.statusCode !== 200) throw new Error(`enable failed: ${res.body}`);
  // the code just used is spent: later requests start on a step of their own
  nextStep(t);
  return { secret, headers, recoveryCodes: res.json().data.recoveryCodes as string[] };
}

/** Sign-in step one from an address of its own; answers the tempToken and the whole answer. */
export async function startSignIn(t: TestApp, customer: TestCustomer, ip = freshIp()) {
  const res = await login(t, loginBody(customer), ip);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return { tempToken: res.json().tempToken as string, answer: res.json(), ip };
}

export const verifyWithRecovery = (
  t: TestApp,
  tempToken: string,
  recoveryCode: string,
  ip = freshIp(),
) =>
  t.app.inject({
    method: 'POST',
    url: twoFactorPaths.verifyRecoveryCode,
    payload: { tempToken, recoveryCode },
    remoteAddress: ip,
  });

export const verifyCode = (
  t: TestApp,
  tempToken: string,
  verificationCode: string,
  ip = freshIp(),
) =>
  t.app.inject({
    method: 'POST',
    url: authPaths.verify2fa,
    payload: { tempToken, verificationCode },
    remoteAddress: ip,
  });
