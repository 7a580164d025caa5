import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { bearer, refresh, refreshCookieOf, signIn } from '../../test/auth';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const profileStatus = async (token: string) =>
  (await t.app.inject({ method: 'GET', url: authPaths.profile, headers: bearer(token) }))
    .statusCode;

describe('POST /api/auth/refresh-token', () => {
  it('takes a request the browser marks as started by the person (Sec-Fetch-Site: none)', async () => {
    const session = await signIn(t, await createCustomer(t));
    const res = await refresh(t, session.refreshToken, { 'sec-fetch-site': 'none' });
    expect(res.statusCode).toBe(200);
  });

  it("takes an Origin naming the request's own host, as behind the development proxy", async () => {
    const session = await signIn(t, await createCustomer(t));
    const host = 'localhost:5173';
    const otherPort = await refresh(t, session.refreshToken, {
      host,
      origin: 'http://localhost:5174',
    });
    expect(otherPort.statusCode).toBe(403);
    const own = await refresh(t, session.refreshToken, { host, origin: `http://${host}` });
    expect(own.statusCode).toBe(200);
  });

  it('never lets a Remember me cookie outlive its session, not even by part of a second', async () => {
    const session = await signIn(t, await createCustomer(t), { rememberMe: true });
    t.clock.advance(20 * 60_000 + 500);
    const res = await refresh(t, session.refreshToken);
    expect(res.statusCode).toBe(200);
    // 12 h less 20 min 0.5 s left: the cookie's whole seconds round down
    expect(refreshCookieOf(res)?.maxAge).toBe(12 * 60 * 60 - 20 * 60 - 1);
  });
});

describe('POST /api/auth/logout', () => {
  const logout = (authorization: string) =>
    t.app.inject({ method: 'POST', url: authPaths.logout, headers: { authorization } });

  it('ends the session of a bearer token written in any case, after several spaces', async () => {
    const session = await signIn(t, await createCustomer(t));
    expect((await logout(`bEARER   ${session.token}`)).statusCode).toBe(200);
    expect(await profileStatus(session.token)).toBe(401);
  });

  it('ends no session for an Authorization header that is not one bearer token', async () => {
    const session = await signIn(t, await createCustomer(t));
    for (const header of [
      `xBearer ${session.token}`,
      `Bearer ${session.token} ${session.token}`,
      `Basic ${session.token}`,
    ]) {
      const res = await logout(header);
      expect(res.statusCode, header).toBe(200);
      expect(await profileStatus(session.token), header).toBe(200);
    }
  });
});
