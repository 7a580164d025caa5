import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths, securityPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { REFRESH_COOKIE } from '../auth/routes';
import { IDLE_LIMIT_MS, ROTATION_GRACE_MS } from '../auth/sessions';
import {
  bearer,
  latestCode,
  login,
  loginBody,
  refresh,
  refreshCookieOf,
  signIn,
  verify,
  wrongCode,
} from '../../test/auth';
import { recordAudit } from './record';
import { auditOf, expectNoneOf } from '../../test/audit';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sessionIdOf = (token: string) => String(decodeJwt(token).sid);

describe('the audit log of sign-ins', () => {
  it("records a sign-in with its session and the client's network, and neither the password, the code, the e-mail nor the address", async () => {
    const customer = await createCustomer(t);
    const ip = '198.51.100.23';
    const first = await login(t, loginBody(customer), ip);
    expect(first.statusCode).toBe(200);
    const code = await latestCode(t);
    const res = await verify(t, first.json().tempToken, code, ip);
    expect(res.statusCode).toBe(200);

    const rows = await auditOf(t, customer.id);
    expect(rows).toEqual([
      {
        actorKind: 'customer',
        actorId: customer.id,
        customerId: customer.id,
        action: 'sign_in',
        outcome: 'success',
        clientNetwork: '198.51.100.0/24',
        details: { sessionId: sessionIdOf(res.json().token) },
      },
    ]);
    expectNoneOf(rows, [customer.password, code, customer.email, ip, first.json().tempToken]);
  });

  it('records a wrong password and a wrong code as refused sign-ins, without what was typed', async () => {
    const customer = await createCustomer(t);
    const ip = '198.51.100.41';
    const guess = 'Guessed@Pass1';
    expect((await login(t, loginBody(customer, { password: guess }), ip)).statusCode).toBe(401);
    const first = await login(t, loginBody(customer), ip);
    const code = await latestCode(t);
    const typo = wrongCode(code);
    expect((await verify(t, first.json().tempToken, typo, ip)).statusCode).toBe(400);

    const rows = await auditOf(t, customer.id);
    const refused = (reason: string) => ({
      actorKind: 'customer',
      actorId: customer.id,
      customerId: customer.id,
      action: 'sign_in',
      outcome: 'failure',
      clientNetwork: '198.51.100.0/24',
      details: { reason },
    });
    expect(rows).toEqual([refused('wrong_password'), refused('wrong_code')]);
    expectNoneOf(rows, [guess, customer.password, typo, code, customer.email, ip]);
  });

  it('keeps the /48 of an IPv6 address, the /24 of an IPv4 one written as IPv6, and nothing of what is no address', async () => {
    const v6 = await createCustomer(t);
    await signIn(t, v6, { ip: '2001:db8:abcd:12:34::1' });
    const mapped = await createCustomer(t);
    await signIn(t, mapped, { ip: '::ffff:192.0.2.45' });
    const none = await createCustomer(t);
    await recordAudit(t.deps.db, t.clock, {
      actor: 'customer',
      customerId: none.id,
      action: 'sign_in',
      ip: 'unknown',
    });

    expect((await auditOf(t, v6.id)).map((row) => row.clientNetwork)).toEqual([
      '2001:db8:abcd::/48',
    ]);
    expect((await auditOf(t, mapped.id)).map((row) => row.clientNetwork)).toEqual(['192.0.2.0/24']);
    expect((await auditOf(t, none.id)).map((row) => row.clientNetwork)).toEqual([null]);
  });
});

describe('the audit log of ended sessions', () => {
  const ended = (
    customerId: string,
    actor: 'customer' | 'system',
    reason: string,
    ids: string[],
  ) => ({
    actorKind: actor,
    actorId: actor === 'customer' ? customerId : null,
    customerId,
    action: 'session_ended',
    outcome: 'success',
    clientNetwork: null,
    details: { reason, sessionIds: ids },
  });
  const endings = async (customerId: string) =>
    (await auditOf(t, customerId)).filter((row) => row.action === 'session_ended');

  it('records a sign-out, and other sessions signed out from the security page, as the customer’s', async () => {
    const customer = await createCustomer(t);
    const here = await signIn(t, customer);
    const there = await signIn(t, customer);
    const leaving = await signIn(t, customer);

    const out = await t.app.inject({
      method: 'POST',
      url: authPaths.logout,
      headers: { cookie: `${REFRESH_COOKIE}=${leaving.refreshToken}`, ...bearer(leaving.token) },
    });
    expect(out.statusCode).toBe(200);
    const others = await t.app.inject({
      method: 'POST',
      url: securityPaths.endOtherSessions,
      headers: bearer(here.token),
    });
    expect(others.statusCode).toBe(200);

    expect(await endings(customer.id)).toEqual([
      ended(customer.id, 'customer', 'logout', [sessionIdOf(leaving.token)]),
      ended(customer.id, 'customer', 'signed_out', [sessionIdOf(there.token)]),
    ]);
    expectNoneOf(await endings(customer.id), [here.refreshToken, leaving.refreshToken]);
  });

  it('records a refresh token used again as the system ending its family, and a lapse not at all', async () => {
    const stolen = await createCustomer(t);
    const session = await signIn(t, stolen);
    const rotated = await refresh(t, session.refreshToken);
    expect(refreshCookieOf(rotated)).toBeDefined();
    t.clock.advance(ROTATION_GRACE_MS + 1_000);
    expect((await refresh(t, session.refreshToken)).statusCode).toBe(401);

    const idle = await createCustomer(t);
    const left = await signIn(t, idle);
    t.clock.advance(IDLE_LIMIT_MS + 1_000);
    expect((await refresh(t, left.refreshToken)).statusCode).toBe(401);

    expect(await endings(stolen.id)).toEqual([
      ended(stolen.id, 'system', 'reuse', [sessionIdOf(session.token)]),
    ]);
    expect(await endings(idle.id)).toEqual([]);
  });
});
