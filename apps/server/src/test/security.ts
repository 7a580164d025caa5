import { decodeJwt } from 'jose';
import { authPaths } from '@portal/contract';
import type { TestApp } from './app';
import type { Customer } from '../modules/users/schema';
import { latestCode, loginBody, refreshCookieOf } from './auth';

export const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** The headers of a browser: its User-Agent and, when it keeps one, its device cookie. */
const browserHeaders = (userAgent: string, deviceCookie?: string) => ({
  'user-agent': userAgent,
  ...(deviceCookie ? { cookie: `__Host-device=${deviceCookie}` } : {}),
});

/** The password step as a browser sends it; answers the response. */
export const passwordStep = (
  t: TestApp,
  customer: Customer & { password: string },
  from: { userAgent: string; ip: string },
  overrides: Record<string, unknown> = {},
) =>
  t.app.inject({
    method: 'POST',
    url: authPaths.login,
    headers: browserHeaders(from.userAgent),
    payload: loginBody(customer, overrides),
    remoteAddress: from.ip,
  });

/**
 * Both sign-in steps from a browser (`deviceCookie`: the one it keeps, none for a browser seen
 * for the first time); answers the access token, its session and the refresh token.
 */
export async function signInFrom(
  t: TestApp,
  customer: Customer & { password: string },
  from: { userAgent: string; ip: string; deviceCookie?: string },
) {
  const first = await passwordStep(t, customer, from);
  if (first.statusCode !== 200) throw new Error(`login failed: ${first.body}`);
  const res = await t.app.inject({
    method: 'POST',
    url: authPaths.verify2fa,
    headers: browserHeaders(from.userAgent, from.deviceCookie),
    payload: { tempToken: first.json().tempToken, verificationCode: await latestCode(t) },
    remoteAddress: from.ip,
  });
  if (res.statusCode !== 200) throw new Error(`verification failed: ${res.body}`);
  const token: string = res.json().token;
  return {
    token,
    sessionId: String(decodeJwt(token).sid),
    refreshToken: refreshCookieOf(res)!.value,
  };
}
