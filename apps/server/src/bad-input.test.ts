import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/app';
import { authHeaders, createCustomer } from './test/customers';

let t: TestApp;
let signedIn: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const customer = await createCustomer(t);
  signedIn = await authHeaders(t, customer.id);
});
afterAll(() => t.close());

const PARAM_VALUES = [
  'x',
  '0',
  '00000000-0000-0000-0000-000000000000',
  '%2e%2e%2f',
  'a'.repeat(300),
];
const BODIES: (string | undefined)[] = [
  undefined,
  '{}',
  '[]',
  '"text"',
  'null',
  '{"a":',
  JSON.stringify({ email: 1, password: [], planId: {}, amount: 'lots', page: -1, consentId: null }),
  JSON.stringify({ tempToken: 'x'.repeat(10_000), verificationCode: '12345678' }),
];
const QUERIES = ['', '?page=-1&limit=abc&userId=', '?page=1e9&limit=1e9&cursor=%00&type=unknown'];

/** Every route the OpenAPI document lists, with its path parameters filled in. */
async function routes() {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path })),
  );
}

describe('anything a client can send', () => {
  it('is answered below 500 by every route, signed in or not', async () => {
    const list = await routes();
    expect(list.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const { method, path } of list) {
      for (const value of PARAM_VALUES) {
        const url = path.replace(/\{[^}]+\}/g, encodeURIComponent(value));
        for (const query of QUERIES) {
          for (const body of method === 'GET' || method === 'DELETE' ? [undefined] : BODIES) {
            for (const headers of [{}, signedIn]) {
              const res = await t.app.inject({
                method: method as 'GET',
                url: url + query,
                headers: {
                  ...headers,
                  ...(body === undefined ? {} : { 'content-type': 'application/json' }),
                },
                ...(body === undefined ? {} : { payload: body }),
              });
              if (res.statusCode >= 500)
                failures.push(
                  `${method} ${url}${query} ${body ?? ''} -> ${res.statusCode} ${res.body.slice(0, 120)}`,
                );
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
