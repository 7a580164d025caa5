import type { LightMyRequestResponse } from 'fastify';
import { activityPaths, authPaths, type ActivityEvent } from '@portal/contract';
import { createSmtpMailer } from '../adapters/mail';
import type { Database } from '../db/client';
import type { TestApp } from './app';
import { authHeaders } from './customers';
import { codeFrom } from './mail';
import type { Customer } from '../modules/users/schema';
import { REFRESH_COOKIE } from '../modules/auth/routes';

type TestCustomer = Customer & { password: string };

/** Helpers for the sign-in tests: requests as the web app sends them. */
export const loginBody = (customer: TestCustomer, overrides: Record<string, unknown> = {}) => ({
  email: customer.email,
  mobile: customer.mobile,
  gstNo: customer.gstNo,
  tally_serialno: customer.tallySerialNo,
  password: customer.password,
  rememberMe: false,
  ...overrides,
});

let addressSequence = 0;
/** A client address of its own, so that one test's failures do not throttle the next. */
export const freshIp = () => {
  addressSequence += 1;
  return `10.${(addressSequence >> 16) & 255}.${(addressSequence >> 8) & 255}.${addressSequence & 255}`;
};

export const login = (t: TestApp, body: unknown, ip = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: authPaths.login,
    payload: body as object,
    remoteAddress: ip,
  });

export const verify = (t: TestApp, tempToken: string, verificationCode: string, ip = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: authPaths.verify2fa,
    payload: { tempToken, verificationCode },
    remoteAddress: ip,
  });

/** Sets a new password with a reset link's token, from an address of its own. */
export const resetPassword = (t: TestApp, token: string, newPassword = 'Reset@2026') =>
  t.app.inject({
    method: 'POST',
    url: authPaths.resetPassword,
    payload: { token, newPassword },
    remoteAddress: freshIp(),
  });

/** The code of the newest mail. */
export const latestCode = async (t: TestApp) => codeFrom(await t.latestMail());

/** A code that is not `code`. */
export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

export function refreshCookieOf(res: LightMyRequestResponse) {
  return res.cookies.find((c) => c.name === REFRESH_COOKIE) as
    | {
        name: string;
        value: string;
        maxAge?: number;
        httpOnly?: boolean;
        secure?: boolean;
        sameSite?: string;
        path?: string;
        expires?: Date;
      }
    | undefined;
}

/** Both sign-in steps; answers the access token, the refresh token and the user. */
export async function signIn(
  t: TestApp,
  customer: TestCustomer,
  options: { rememberMe?: boolean; ip?: string } = {},
) {
  const ip = options.ip ?? freshIp();
  const first = await login(
    t,
    loginBody(customer, { rememberMe: options.rememberMe ?? false }),
    ip,
  );
  if (first.statusCode !== 200) throw new Error(`login failed: ${first.body}`);
  const res = await verify(t, first.json().tempToken, await latestCode(t), ip);
  if (res.statusCode !== 200) throw new Error(`verification failed: ${res.body}`);
  const cookie = refreshCookieOf(res);
  if (!cookie) throw new Error('no refresh cookie');
  return { res, token: res.json().token as string, refreshToken: cookie.value, cookie };
}

export const refresh = (t: TestApp, refreshToken?: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: authPaths.refreshToken,
    headers: {
      ...(refreshToken ? { cookie: `${REFRESH_COOKIE}=${refreshToken}` } : {}),
      ...headers,
    },
  });

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Mail that leaves after the answer (reset links) arrives a moment later. */
export async function waitForMailCount(t: TestApp, count: number) {
  for (let i = 0; i < 100; i += 1) {
    const mails = await t.outbox();
    if (mails.length >= count) return mails;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`expected ${count} mails`);
}

/**
 * `db`, except that its first delete statement, once it has run, waits for `between` before its
 * caller sees the result: another request's statement lands exactly there.
 */
export function afterFirstDelete(db: Database, between: () => Promise<unknown>): Database {
  let armed = true;
  return new Proxy(db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== 'delete') return value;
      return (...args: Parameters<Database['delete']>) => {
        const statement = target.delete(...args);
        const run = statement.then.bind(statement);
        Object.assign(statement, {
          then: (...handlers: Parameters<typeof run>) =>
            run(async (rows) => {
              if (armed) {
                armed = false;
                await between();
              }
              return rows;
            }).then(...handlers),
        });
        return statement;
      };
    },
  });
}

/** The customer's activity feed, newest first, as the web app reads it. */
export async function activityFeed(t: TestApp, customerId: string): Promise<ActivityEvent[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: activityPaths.feed,
    headers: await authHeaders(t, customerId),
  });
  if (res.statusCode !== 200) throw new Error(`activity feed failed: ${res.body}`);
  return res.json().data;
}

/** POST /api/users/forgot-password for `email`, from an address of its own (no shared limit). */
export const requestResetLink = (t: Pick<TestApp, 'app'>, email: string) =>
  t.app.inject({
    method: 'POST',
    url: authPaths.forgotPassword,
    payload: { email },
    remoteAddress: freshIp(),
  });

/** The real SMTP adapter pointed at a port where nothing listens: every mail fails to go. */
export const unreachableMailer = () =>
  createSmtpMailer('smtp://127.0.0.1:1', 'portal@example.test');
