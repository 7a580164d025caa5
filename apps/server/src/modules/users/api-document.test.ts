import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app';

interface Operation {
  tags: string[];
  summary: string;
  security?: unknown;
  responses: Record<string, unknown>;
}

/**
 * The operations of the OpenAPI document the API publishes, as a client generator reads it.
 * The app is built inside the test, not in a hook: the routes' declarations then count as run
 * by this test, so that mutation testing's per-test coverage runs it against their mutants.
 */
async function documentedPaths() {
  const t = await createTestApp();
  try {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    return res.json().paths as Record<string, Record<string, Operation>>;
  } finally {
    await t.close();
  }
}

// each test builds an app; the first one migrates its database, near a minute on a busy machine
const BUILDS_AN_APP = 120_000;

describe('the OpenAPI document', () => {
  it(
    'describes the password change: its tag, its summary, bearer access and every answer',
    async () => {
      const put = (await documentedPaths())['/api/users/{id}']!.put!;
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
    },
    BUILDS_AN_APP,
  );

  it(
    'describes forgot-password and reset-password as open routes with their answers',
    async () => {
      const paths = await documentedPaths();
      const forgot = paths['/api/users/forgot-password']!.post!;
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

      const reset = paths['/api/users/reset-password']!.post!;
      expect(reset.tags).toEqual(['users']);
      expect(reset.summary).toBe('Sets a new password with a reset link; every session ends');
      expect(reset.security).toEqual([]);
      expect(Object.keys(reset.responses).sort()).toEqual([
        '200',
        '400',
        '413',
        '415',
        '429',
        '503',
      ]);
    },
    BUILDS_AN_APP,
  );
});
