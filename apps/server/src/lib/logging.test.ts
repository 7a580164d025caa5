import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { createCustomer } from '../test/customers';
import { REFRESH_COOKIE } from '../modules/auth/routes';
import {
  bearer,
  latestCode,
  login,
  loginBody,
  refresh,
  refreshCookieOf,
  verify,
} from '../modules/auth/test-support';
import { redactUrl } from './logging';

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  t = await createTestApp({ logStream, env: { LOG_LEVEL: 'info' } });
});
afterAll(() => t.close());

describe('the server log', () => {
  it('carries request ids but no password, code, token, cookie or link secret', async () => {
    const customer = await createCustomer(t);
    const { tempToken } = (await login(t, loginBody(customer))).json<{ tempToken: string }>();
    const code = await latestCode(t);
    const verified = await verify(t, tempToken, code);
    const { token } = verified.json<{ token: string }>();
    const refreshValue = refreshCookieOf(verified)!.value;

    await t.app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: { ...bearer(token), cookie: `${REFRESH_COOKIE}=${refreshValue}` },
    });
    await refresh(t, refreshValue);
    await t.app.inject({ method: 'GET', url: '/reset-password?token=reset-secret-in-the-link' });
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"password":"${customer.password}",`,
    });

    const log = lines.join('');
    expect(log).toContain('"reqId"');
    expect(log).toContain('/reset-password?token=[REDACTED]');
    for (const secret of [
      customer.password,
      code,
      tempToken,
      token,
      refreshValue,
      'reset-secret-in-the-link',
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});

describe('redactUrl', () => {
  it('hides the values of secret query parameters and keeps the rest', () => {
    expect(redactUrl('/api/files/a?expires=1&sub=c&sig=abc&x=1')).toBe(
      '/api/files/a?expires=1&sub=c&sig=[REDACTED]&x=1',
    );
    expect(redactUrl('/reset-password?token=t0k')).toBe('/reset-password?token=[REDACTED]');
  });
});
