import { Readable } from 'node:stream';
import { and, eq, isNull } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths, screenReads } from '@portal/contract';
import { AppError } from '../../lib/errors';
import { registerErrorHandling } from '../../lib/http-errors';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { openUnreachableDatabase } from '../../test/database';
import { createAccessTokens } from './access-token';
import { registerAuthentication } from './authenticate';
import { sessions } from './schema';
import { startSession } from './sessions';
import { REFRESH_COOKIE } from './routes';
import { bearer, signIn } from '../../test/auth';

let t: TestApp;
/** Routes of each kind, on the portal's database and tokens: what a module would write. */
let probe: FastifyInstance;
const ran: string[] = [];
/** The streams the streaming read handed to Fastify, newest last. */
const streams: Readable[] = [];

beforeAll(async () => {
  t = await createTestApp();
  probe = Fastify();
  registerErrorHandling(probe);
  // a header set before the check, as the portal's security headers are
  probe.addHook('onRequest', async (_request, reply) => {
    reply.header('x-frame-options', 'DENY');
  });
  registerAuthentication(probe, {
    tokens: createAccessTokens(t.deps.secrets.jwt, t.clock),
    db: t.deps.db,
    clock: t.clock,
  });
  probe.get('/read', { preHandler: probe.authenticateRead }, async (request, reply) => {
    ran.push('read');
    reply.header('x-customer', request.auth.customerId);
    return { success: true, customerId: request.auth.customerId };
  });
  probe.get('/read-missing', { preHandler: probe.authenticateRead }, async () => {
    throw new AppError('NOT_FOUND', `Nothing here for you`);
  });
  probe.get('/read-stream', { preHandler: probe.authenticateRead }, async (request, reply) => {
    const stream = Readable.from([`customer,${request.auth.customerId}\n`]);
    streams.push(stream);
    return reply.header('content-disposition', 'attachment; filename="statement.csv"').send(stream);
  });
  // a read whose own statement reads the session, as the consents page and orders history do
  const carried = { preHandler: probe.authenticateInStatement };
  probe.get('/carried', carried, async (request, reply) => {
    ran.push('carried');
    const { sessionId, customerId } = request.auth;
    const [session] = await t.deps.db
      .select({ createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt })
      .from(sessions)
      .where(
        and(
          eq(sessions.id, sessionId),
          eq(sessions.customerId, customerId),
          isNull(sessions.revokedAt),
        ),
      );
    await probe.confirmSession(request, session);
    reply.header('x-customer', customerId);
    return { success: true, customerId };
  });
  // refuses its input before any statement ran
  probe.get('/carried-bad-input', carried, async () => {
    throw new AppError('BAD_REQUEST', 'That page cursor is not one of ours.');
  });
  // answers without handing over a session: the hook checks it instead
  probe.get('/carried-unconfirmed', carried, async (request, reply) => {
    reply.header('x-customer', request.auth.customerId);
    return { success: true, customerId: request.auth.customerId };
  });
  probe.get('/write', { preHandler: probe.authenticate }, async (request) => {
    ran.push('write');
    return { success: true, customerId: request.auth.customerId };
  });
  await probe.ready();
});
afterAll(async () => {
  await probe.close();
  await t.close();
});

const expired = { success: false, message: 'Session expired. Please log in again.' };

const logout = (refreshToken: string) =>
  t.app.inject({
    method: 'POST',
    url: authPaths.logout,
    headers: { cookie: `${REFRESH_COOKIE}=${refreshToken}` },
  });

async function signedIn() {
  const customer = await createCustomer(t);
  return { customer, ...(await signIn(t, customer)) };
}

describe('a read whose session check runs beside it', () => {
  it('answers what the handler produced while the session stands', async () => {
    const { customer, token } = await signedIn();
    const res = await probe.inject({ method: 'GET', url: '/read', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-customer']).toBe(customer.id);
    expect(res.json()).toEqual({ success: true, customerId: customer.id });
  });

  it('answers 401 after a logout, with nothing of what the handler produced', async () => {
    const { customer, token, refreshToken } = await signedIn();
    expect((await logout(refreshToken)).statusCode).toBe(200);
    ran.length = 0;
    for (const url of ['/read', '/read-missing', '/read-stream']) {
      const res = await probe.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(expired);
      expect(res.body).not.toContain(customer.id);
      expect(res.headers['x-customer']).toBeUndefined();
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      // what was set before the handler stays
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    // the handler did run: the check went beside it, not before it
    expect(ran).toEqual(['read']);
    // the statement's stream is closed, not left open with its source
    expect(streams.at(-1)!.destroyed).toBe(true);
  });

  it('keeps the handler’s own error while the session stands', async () => {
    const { token } = await signedIn();
    const res = await probe.inject({ method: 'GET', url: '/read-missing', headers: bearer(token) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'Nothing here for you' });
  });

  it('refuses a bad token before the handler runs', async () => {
    ran.length = 0;
    const res = await probe.inject({ method: 'GET', url: '/read', headers: bearer('not.a.token') });
    expect(res.statusCode).toBe(401);
    expect(ran).toEqual([]);
  });
});

describe('a read whose statement reads the session', () => {
  it('answers what the handler produced while the session stands', async () => {
    const { customer, token } = await signedIn();
    for (const url of ['/carried', '/carried-unconfirmed']) {
      const res = await probe.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['x-customer'], url).toBe(customer.id);
      expect(res.json(), url).toEqual({ success: true, customerId: customer.id });
    }
    const bad = await probe.inject({
      method: 'GET',
      url: '/carried-bad-input',
      headers: bearer(token),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ success: false, message: 'That page cursor is not one of ours.' });
  });

  it('answers 401 after a logout, whether or not the handler read the session', async () => {
    const { customer, token, refreshToken } = await signedIn();
    expect((await logout(refreshToken)).statusCode).toBe(200);
    ran.length = 0;
    for (const url of ['/carried', '/carried-bad-input', '/carried-unconfirmed']) {
      const res = await probe.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual(expired);
      expect(res.body, url).not.toContain(customer.id);
      expect(res.headers['x-customer'], url).toBeUndefined();
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
    // the handler ran, and its own statement found no session
    expect(ran).toEqual(['carried']);
  });

  it('refuses a bad token before the handler runs', async () => {
    ran.length = 0;
    const res = await probe.inject({ method: 'GET', url: '/carried', headers: bearer('x.y.z') });
    expect(res.statusCode).toBe(401);
    expect(ran).toEqual([]);
  });
});

describe('a read whose session check fails', () => {
  it('answers 503 with Retry-After and nothing the handler produced, and logs why', async () => {
    // a database that no longer answers: the check fails, it does not say no
    const gone = await openUnreachableDatabase();
    const logged: { level: number; msg: string; err?: { message?: string } }[] = [];
    const broken = Fastify({
      logger: { level: 'warn', stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
    });
    registerErrorHandling(broken);
    registerAuthentication(broken, {
      tokens: createAccessTokens(t.deps.secrets.jwt, t.clock),
      db: gone.db,
      clock: t.clock,
    });
    broken.get('/read', { preHandler: broken.authenticateRead }, async (request, reply) => {
      reply.header('x-customer', request.auth.customerId);
      return { success: true, customerId: request.auth.customerId };
    });
    const { customer, token } = await signedIn();
    const res = await broken.inject({ method: 'GET', url: '/read', headers: bearer(token) });
    await broken.close();
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers['x-customer']).toBeUndefined();
    expect(res.json()).toEqual({
      success: false,
      message: 'The service is briefly unavailable. Please try again in a moment.',
    });
    expect(res.body).not.toContain(customer.id);
    expect(logged).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'session check failed',
        err: expect.objectContaining({ message: expect.any(String) }),
      }),
    ]);
  });
});

describe('a route that checks the session first', () => {
  it('never runs its handler for a logged-out session', async () => {
    const { token, refreshToken } = await signedIn();
    await logout(refreshToken);
    ran.length = 0;
    const res = await probe.inject({ method: 'GET', url: '/write', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(expired);
    expect(ran).toEqual([]);
  });
});

describe('the portal’s reads after a logout', () => {
  const reads = (customerId: string) => [
    ...Object.values(screenReads(customerId)),
    `/api/user-consents/user/${customerId}`,
  ];

  it('answer 401 on every read route, with none of the customer’s data', async () => {
    const { customer, token, refreshToken } = await signedIn();
    // the routes answer this session: what follows comes of the logout
    for (const url of reads(customer.id)) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.statusCode, url).not.toBe(401);
    }
    await logout(refreshToken);
    for (const url of reads(customer.id)) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual(expired);
      expect(res.body).not.toContain(customer.email);
    }
  });

  it('end access for every read that starts once a concurrent logout has answered', async () => {
    const { customer, token, refreshToken } = await signedIn();
    const urls = reads(customer.id);
    let loggedOut = false;
    const outcomes: { after: boolean; status: number }[] = [];
    const reader = async (url: string) => {
      // until two requests of its own have started after the logout answered
      let startedAfter = 0;
      for (let i = 0; i < 100 && startedAfter < 2; i += 1) {
        const after = loggedOut;
        if (after) startedAfter += 1;
        // the streamed full list of a read begun before is cut at its next batch: status 0
        const status = await t.app.inject({ method: 'GET', url, headers: bearer(token) }).then(
          (res) => res.statusCode,
          () => 0,
        );
        outcomes.push({ after, status });
      }
    };
    const logoutSoon = logout(refreshToken).then((res) => {
      expect(res.statusCode).toBe(200);
      loggedOut = true;
    });
    await Promise.all([...urls.map(reader), logoutSoon]);
    const after = outcomes.filter((o) => o.after);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((o) => o.status === 401)).toBe(true);
    expect(outcomes.filter((o) => !o.after).some((o) => o.status !== 401)).toBe(true);
  });
});

describe('the session check of a read', () => {
  /** A fresh token for a session started now, signed again later by the test's clock. */
  async function sessionStartedNow() {
    const customer = await createCustomer(t);
    const { sessionId } = await startSession(t.deps.db, t.clock, customer.id, false);
    const tokens = createAccessTokens(t.deps.secrets.jwt, t.clock);
    return {
      customer,
      sessionId,
      token: () => tokens.sign({ customerId: customer.id, sessionId }),
    };
  }
  const lastUsedAt = async (sessionId: string) =>
    (await t.deps.db.select().from(sessions).where(eq(sessions.id, sessionId)))[0]!.lastUsedAt;

  it('ends a session 12 hours after it began, on the profile and beside a read', async () => {
    const { customer, token } = await sessionStartedNow();
    // used every 20 minutes, so that only the 12 hours can end it
    for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
      t.clock.advance(20 * 60_000);
      const res = await t.app.inject({
        method: 'GET',
        url: authPaths.profile,
        headers: bearer(await token()),
      });
      expect(res.statusCode).toBe(200);
    }
    t.clock.advance(20 * 60_000);
    const headers = bearer(await token());
    const profile = await t.app.inject({ method: 'GET', url: authPaths.profile, headers });
    expect(profile.statusCode).toBe(401);
    expect(profile.json()).toEqual(expired);
    for (const url of ['/read', '/carried']) {
      const read = await probe.inject({ method: 'GET', url, headers });
      expect(read.statusCode, url).toBe(401);
      expect(read.body, url).not.toContain(customer.id);
    }
  });

  it('writes lastUsedAt again once it is a minute old, not before', async () => {
    for (const ask of [
      (headers: Record<string, string>) =>
        t.app.inject({ method: 'GET', url: authPaths.profile, headers }),
      (headers: Record<string, string>) => probe.inject({ method: 'GET', url: '/read', headers }),
      (headers: Record<string, string>) =>
        probe.inject({ method: 'GET', url: '/carried', headers }),
    ]) {
      const { sessionId, token } = await sessionStartedNow();
      const started = await lastUsedAt(sessionId);
      t.clock.advance(59_000);
      expect((await ask(bearer(await token()))).statusCode).toBe(200);
      expect(await lastUsedAt(sessionId)).toEqual(started);
      t.clock.advance(1_000);
      expect((await ask(bearer(await token()))).statusCode).toBe(200);
      expect(await lastUsedAt(sessionId)).toEqual(t.clock.now());
    }
  });
});

describe('the bearer header', () => {
  const unauthorized = { success: false, message: 'Unauthorized access. Please log in.' };

  it('answers 401 Unauthorized access without an Authorization header', async () => {
    for (const url of ['/read', '/write']) {
      const res = await probe.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toEqual(unauthorized);
    }
  });

  it('takes the scheme in any case, and any run of spaces before the token', async () => {
    const { customer, token } = await signedIn();
    for (const authorization of [`bearer ${token}`, `Bearer   ${token}`, `BEARER \t${token}`]) {
      for (const url of ['/read', '/write']) {
        const res = await probe.inject({ method: 'GET', url, headers: { authorization } });
        expect(res.statusCode, `${url} ${authorization}`).toBe(200);
        expect(res.json().customerId).toBe(customer.id);
      }
    }
  });

  it('refuses a header that only contains a bearer token somewhere', async () => {
    const { token } = await signedIn();
    ran.length = 0;
    for (const authorization of [
      `XBearer ${token}`,
      `Basic dXNlcjpwYXNz Bearer ${token}`,
      `Bearer ${token} ${token}`,
      `Bearer ${token} trailing`,
      `Bearer${token}`,
    ]) {
      for (const url of ['/read', '/write']) {
        const res = await probe.inject({ method: 'GET', url, headers: { authorization } });
        expect(res.statusCode, `${url} ${authorization}`).toBe(401);
        expect(res.json()).toEqual(unauthorized);
      }
    }
    expect(ran).toEqual([]);
  });
});

describe('a signed token whose ids are no UUIDs', () => {
  it('answers 401 Session expired on both kinds of route', async () => {
    const customer = await createCustomer(t);
    const { sessionId } = await startSession(t.deps.db, t.clock, customer.id, false);
    const tokens = createAccessTokens(t.deps.secrets.jwt, t.clock);
    ran.length = 0;
    // each id wrong on its own: the other one is a real, live one
    for (const claims of [
      { customerId: customer.id, sessionId: 'not-a-uuid' },
      { customerId: 'not-a-uuid', sessionId },
      { customerId: `${customer.id}x`, sessionId },
      { customerId: customer.id, sessionId: `x${sessionId}` },
    ]) {
      const headers = bearer(await tokens.sign(claims));
      for (const url of ['/read', '/write']) {
        const res = await probe.inject({ method: 'GET', url, headers });
        expect(res.statusCode, `${url} ${JSON.stringify(claims)}`).toBe(401);
        expect(res.json()).toEqual(expired);
      }
    }
    expect(ran).toEqual([]);
  });
});

describe('registerAuthentication', () => {
  it('declares what it adds, so that no other plugin can take those names', async () => {
    const app = Fastify();
    registerAuthentication(app, {
      tokens: createAccessTokens(t.deps.secrets.jwt, t.clock),
      db: t.deps.db,
      clock: t.clock,
    });
    expect(app.hasDecorator('authenticate')).toBe(true);
    expect(app.hasDecorator('authenticateRead')).toBe(true);
    expect(app.hasDecorator('authenticateInStatement')).toBe(true);
    expect(app.hasDecorator('confirmSession')).toBe(true);
    expect(app.hasRequestDecorator('auth')).toBe(true);
    expect(app.hasRequestDecorator('pendingSessionCheck')).toBe(true);
    expect(() => app.decorateRequest('auth', null as never)).toThrow(/already been added/);
    await app.close();
  });

  it('guards a route with authenticate: a logged-out session never reaches its handler', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    registerAuthentication(app, {
      tokens: createAccessTokens(t.deps.secrets.jwt, t.clock),
      db: t.deps.db,
      clock: t.clock,
    });
    let handled = 0;
    app.get('/write', { preHandler: app.authenticate }, async (request) => {
      handled += 1;
      return { customerId: request.auth.customerId };
    });
    const { customer, token, refreshToken } = await signedIn();
    expect(
      (await app.inject({ method: 'GET', url: '/write', headers: bearer(token) })).json(),
    ).toEqual({ customerId: customer.id });
    await logout(refreshToken);
    const res = await app.inject({ method: 'GET', url: '/write', headers: bearer(token) });
    await app.close();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(expired);
    expect(handled).toBe(1);
  });
});
