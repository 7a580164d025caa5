import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { openUnreachableDatabase } from '../../test/database';
import { RETRY_AFTER_SECONDS } from '../../lib/http-errors';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/health', () => {
  it('answers ok when the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, status: 'ok', database: 'ok' });
  });

  it('answers 503 with Retry-After while the database is unreachable', async () => {
    const unreachable = await openUnreachableDatabase();
    const down = await createTestApp({ deps: { db: unreachable.db } });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
      expect(res.json()).toEqual({ success: false, message: 'Database is unreachable' });
    } finally {
      await down.close();
      await unreachable.close();
    }
  });

  it('sends the security headers on every answer: a read, an unknown route, bad input', async () => {
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/health' }),
      t.app.inject({ method: 'GET', url: '/api/nowhere' }),
      t.app.inject({
        method: 'POST',
        url: authPaths.login,
        headers: { 'content-type': 'application/json' },
        payload: '{"a":',
      }),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 404, 400]);
    for (const res of answers) {
      expect(res.headers).toMatchObject({
        'content-security-policy':
          "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';" +
          "frame-ancestors 'none';img-src 'self' data:;object-src 'none';script-src 'self';" +
          "script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self'",
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-frame-options': 'DENY',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
      });
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describe('bad input', () => {
  it('answers an unknown route with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      success: false,
      message: expect.stringContaining('not found'),
    });
  });

  it('answers malformed JSON with a 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toMatchObject({ success: false });
  });
});

describe('GET /api/docs', () => {
  it('serves an OpenAPI document generated from the contract', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/api/health']).toBeDefined();
  });
});
