import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Operation {
  tags: string[];
  summary: string;
  security?: unknown;
  responses: Record<string, unknown>;
}

const errorAnswers = ['400', '401', '403', '413', '415', '429', '503'];

describe('the OpenAPI document', () => {
  it('describes every sign-in and session route under its tag, with its summary and answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, Operation>>;
    const expected: [string, string, string][] = [
      [authPaths.login, 'post', 'Sign-in step one: every credential; mails a 6-digit code'],
      [authPaths.verify2fa, 'post', 'Sign-in step two: the e-mailed code; sets the refresh cookie'],
      [
        authPaths.resendVerification,
        'post',
        'A new code for a pending sign-in; the old one stops working',
      ],
      [
        authPaths.refreshToken,
        'post',
        'A new access token for the refresh cookie, which is rotated',
      ],
      [authPaths.logout, 'post', 'Ends the session of the refresh cookie and clears it'],
    ];
    for (const [path, method, summary] of expected) {
      const operation = paths[path]![method]!;
      expect(operation.tags, path).toEqual(['auth']);
      expect(operation.summary, path).toBe(summary);
      expect(Object.keys(operation.responses).sort(), path).toEqual(['200', ...errorAnswers]);
    }
  });

  it('describes the profile as a bearer route that answers 200, 401 or 503', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const profile = (res.json().paths as Record<string, Record<string, Operation>>)[
      authPaths.profile
    ]!.get!;
    expect(profile.tags).toEqual(['auth']);
    expect(profile.summary).toBe('The signed-in customer with the current plan');
    expect(profile.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(profile.responses).sort()).toEqual(['200', '401', '503']);
  });
});
