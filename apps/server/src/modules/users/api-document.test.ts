import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** An operation of the OpenAPI document the API publishes, as a client generator reads it. */
async function operation(path: string, method: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  return res.json().paths[path][method] as {
    tags: string[];
    summary: string;
    security?: unknown;
    responses: Record<string, unknown>;
  };
}

describe('the OpenAPI document', () => {
  it('describes the password change: its tag, its summary, bearer access and every answer', async () => {
    const put = await operation('/api/users/{id}', 'put');
    expect(put.tags).toEqual(['users']);
    expect(put.summary).toBe("Changes the signed-in customer's password; other sessions end");
    expect(put.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(put.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '413',
      '415',
      '429',
      '503',
    ]);
  });

  it('describes forgot-password and reset-password as open routes with their answers', async () => {
    const forgot = await operation('/api/users/forgot-password', 'post');
    expect(forgot.tags).toEqual(['users']);
    expect(forgot.summary).toBe(
      'Mails a reset link when the account exists; the answer never tells',
    );
    // an open route declares that it needs no credentials
    expect(forgot.security).toEqual([]);
    expect(Object.keys(forgot.responses).sort()).toEqual([
      '200',
      '400',
      '413',
      '415',
      '429',
      '503',
    ]);

    const reset = await operation('/api/users/reset-password', 'post');
    expect(reset.tags).toEqual(['users']);
    expect(reset.summary).toBe('Sets a new password with a reset link; every session ends');
    expect(reset.security).toEqual([]);
    expect(Object.keys(reset.responses).sort()).toEqual(['200', '400', '413', '415', '429', '503']);
  });
});
