import { authPaths } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { authHeaders, createCustomer } from '../test/customers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('Cache-Control of API answers', () => {
  it('forbids storing a personal answer', async () => {
    const customer = await createCustomer(t);
    const res = await t.app.inject({
      method: 'GET',
      url: authPaths.profile,
      headers: await authHeaders(t, customer.id),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('forbids storing an error answer', async () => {
    const refused = await t.app.inject({ method: 'GET', url: authPaths.profile });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    const unknown = await t.app.inject({ method: 'GET', url: '/api/nowhere' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['cache-control']).toBe('no-store');
  });
});
