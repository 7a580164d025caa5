import { describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp } from '../../test/app';

interface Operation {
  tags: string[];
  summary: string;
  security?: unknown;
  responses: Record<string, unknown>;
}

const errorAnswers = ['400', '401', '403', '413', '415', '429', '503'];

describe('the OpenAPI document', () => {
  it('describes every sign-in and session route under its tag, with its summary and answers', async () => {
    // built here, not in beforeAll: mutation testing credits a test only with the code it runs
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(res.statusCode).toBe(200);
      const paths = res.json().paths as Record<string, Record<string, Operation>>;
      const posts: [string, string][] = [
        [authPaths.login, 'Sign-in step one: every credential; mails a 6-digit code'],
        [authPaths.verify2fa, 'Sign-in step two: the e-mailed code; sets the refresh cookie'],
        [
          authPaths.resendVerification,
          'A new code for a pending sign-in; the old one stops working',
        ],
        [authPaths.refreshToken, 'A new access token for the refresh cookie, which is rotated'],
        [authPaths.logout, 'Ends the session of the refresh cookie and clears it'],
      ];
      for (const [path, summary] of posts) {
        const operation = paths[path]!.post!;
        expect(operation.tags, path).toEqual(['auth']);
        expect(operation.summary, path).toBe(summary);
        expect(Object.keys(operation.responses).sort(), path).toEqual(['200', ...errorAnswers]);
      }

      const profile = paths[authPaths.profile]!.get!;
      expect(profile.tags).toEqual(['auth']);
      expect(profile.summary).toBe('The signed-in customer with the current plan');
      expect(profile.security).toEqual([{ bearer: [] }]);
      expect(Object.keys(profile.responses).sort()).toEqual(['200', '401', '503']);
    } finally {
      await t.close();
    }
  });
});
