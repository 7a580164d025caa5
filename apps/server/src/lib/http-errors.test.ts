import { randomUUID } from 'node:crypto';
import { DrizzleQueryError } from 'drizzle-orm';
import { authPaths, consentPaths, orderPaths } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { createAccessTokens } from '../modules/auth/access-token';
import { createTestApp, type TestApp } from '../test/app';
import { openUnreachableDatabase } from '../test/database';
import { isDatabaseUnavailable } from './database-errors';
import { RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from './http-errors';

let unreachable: DatabaseHandle;
let t: TestApp;
beforeAll(async () => {
  unreachable = await openUnreachableDatabase();
  t = await createTestApp({ deps: { db: unreachable.db } });
});
afterAll(async () => {
  await t.close();
  await unreachable.close();
});

describe('every route while the database is unreachable', () => {
  it('answers 503 with Retry-After and asks to try again, for readers and writers alike', async () => {
    const customerId = randomUUID();
    const token = await createAccessTokens(t.deps.secrets.jwt, t.clock).sign({
      customerId,
      sessionId: randomUUID(),
    });
    const authorization = `Bearer ${token}`;
    const requests = [
      { method: 'GET', url: authPaths.profile, headers: { authorization } },
      { method: 'GET', url: orderPaths.history, headers: { authorization } },
      {
        method: 'GET',
        url: `${consentPaths.list}?page=1&limit=10&userId=${customerId}`,
        headers: { authorization },
      },
      { method: 'POST', url: authPaths.forgotPassword, payload: { email: 'a@example.test' } },
    ] as const;

    for (const request of requests) {
      const res = await t.app.inject(request);
      expect([request.url, res.statusCode]).toEqual([request.url, 503]);
      expect(res.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
      expect(res.json()).toEqual({ success: false, message: UNAVAILABLE_MESSAGE });
    }
  });

  it('still serves what needs no database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
  });
});

describe('isDatabaseUnavailable', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
  const failedQuery = (cause: Error) => new DrizzleQueryError('select 1', [], cause);

  it('knows a lost or refused connection, however the driver says it', () => {
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      failedQuery(withCode('read ECONNRESET', 'ECONNRESET')),
      failedQuery(new Error('Connection terminated unexpectedly')),
      new Error('timeout exceeded when trying to connect'),
      failedQuery(withCode('terminating connection due to administrator command', '57P01')),
      failedQuery(withCode('the database system is starting up', '57P03')),
      failedQuery(withCode('connection failure', '08006')),
      new DrizzleQueryError('rollback', [], failedQuery(withCode('crash shutdown', '57P02'))),
    ]) {
      expect([error.message, isDatabaseUnavailable(error)]).toEqual([error.message, true]);
    }
  });

  it('leaves a query the database refused, and any other failure, to the 500 answer', () => {
    for (const error of [
      failedQuery(withCode('duplicate key value violates unique constraint', '23505')),
      failedQuery(withCode('canceling statement due to statement timeout', '57014')),
      new Error('Something else'),
      'not an error',
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
  });
});
