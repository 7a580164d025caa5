import { randomUUID } from 'node:crypto';
import { ErrorResponseSchema } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './db/client';
import { createAccessTokens } from './modules/auth/access-token';
import { operationIdOf } from './openapi';
import { createTestApp, type TestApp } from './test/app';
import { openUnreachableDatabase } from './test/database';

interface Operation {
  operationId?: string;
  requestBody?: unknown;
  security?: Record<string, unknown>[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
}
interface Document {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

let unreachable: DatabaseHandle;
let t: TestApp;
let document: Document;
beforeAll(async () => {
  unreachable = await openUnreachableDatabase();
  t = await createTestApp({
    deps: { db: unreachable.db },
    env: { PUBLIC_URL: 'https://portal.ledgerline.test' },
  });
  document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
});
afterAll(async () => {
  await t.close();
  await unreachable.close();
});

const operations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method, path, operation })),
  );

describe('GET /api/docs/json', () => {
  it('names the portal as its server and gives every operation a unique operationId', () => {
    expect(document.servers).toEqual([
      { url: 'https://portal.ledgerline.test', description: 'This portal' },
    ]);
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operationIdOf('post', '/api/orders/{id}/check-status')).toBe(
      'postOrdersByIdCheckStatus',
    );
  });

  it('declares the security of every operation, open ones included', () => {
    for (const { method, path, operation } of operations()) {
      expect(Array.isArray(operation.security), `${method} ${path}`).toBe(true);
    }
    const security = (path: string, method: string) => document.paths[path]![method]!.security;
    expect(security('/api/auth/login', 'post')).toEqual([]);
    expect(security('/api/auth/refresh-token', 'post')).toEqual([{ refreshCookie: [] }]);
    expect(security('/api/create-payment', 'post')).toEqual([{ bearer: [] }]);
  });

  it('declares the 503 of a database outage on every operation that answers it', async () => {
    const token = await createAccessTokens(t.deps.secrets.jwt, t.clock).sign({
      customerId: randomUUID(),
      sessionId: randomUUID(),
    });
    const answered503: string[] = [];
    for (const { method, path, operation } of operations()) {
      const res = await t.app.inject({
        method: method.toUpperCase() as 'GET',
        url: path.replace(/\{[^}]+\}/g, randomUUID()),
        headers: {
          authorization: `Bearer ${token}`,
          'x-api-key': 'pk_'.padEnd(40, 'x'),
        },
      });
      const name = `${method.toUpperCase()} ${path}`;
      if (res.statusCode === 503) {
        answered503.push(name);
        expect(ErrorResponseSchema.safeParse(res.json()).success, name).toBe(true);
        expect(res.headers['retry-after'], name).toBeDefined();
      }
      if (path !== '/api/health/live') {
        expect(Object.keys(operation.responses), name).toContain('503');
      }
    }
    // a signed-in operation asks the database for the session before anything else
    expect(answered503).toEqual(
      expect.arrayContaining(['GET /api/auth/profile', 'GET /api/orders/history']),
    );
    const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(Object.keys(document.paths['/api/health/live']!.get!.responses)).not.toContain('503');
    const declared = document.paths['/api/orders/history']!.get!.responses['503']!;
    expect(Object.keys(declared.headers ?? {})).toEqual(['Retry-After']);
  });

  it('declares the 413 and 415 of every operation that reads a body, as it answers them', async () => {
    const withBody = operations().filter(({ operation }) => operation.requestBody !== undefined);
    expect(withBody.length).toBeGreaterThan(10);
    // over every route's limit, the partner's document upload's included
    const oversize = JSON.stringify({ text: 'x'.repeat(16 * 1024 * 1024) });
    for (const { method, path, operation } of withBody) {
      const name = `${method.toUpperCase()} ${path}`;
      const send = (contentType: string, payload: string) =>
        t.app.inject({
          method: method.toUpperCase() as 'POST',
          url: path.replace(/\{[^}]+\}/g, randomUUID()),
          headers: { 'content-type': contentType },
          payload,
        });
      const tooLarge = await send('application/json', oversize);
      expect([tooLarge.statusCode, tooLarge.json().message], name).toEqual([
        413,
        'Request body is too large',
      ]);
      const notJson = await send('application/xml', '<order/>');
      expect([notJson.statusCode, notJson.json().message], name).toEqual([
        415,
        'Unsupported content type',
      ]);
      expect(Object.keys(operation.responses), name).toEqual(
        expect.arrayContaining(['413', '415']),
      );
    }
  });
});
