import { describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { BUILDS_AN_APP, documentedOperations, outline } from '../../test/api-document';

const errorAnswers = ['400', '401', '403', '413', '415', '429', '503'];

describe('the OpenAPI document', () => {
  it(
    'describes every sign-in and session route under its tag, with its summary and answers',
    async () => {
      const paths = await documentedOperations();
      const posts: [string, string][] = [
        [authPaths.login, 'Sign-in step one: every credential; mails a 6-digit code'],
        [authPaths.verify2fa, 'Sign-in step two: the e-mailed code; sets the refresh cookie'],
        [
          authPaths.resendVerification,
          'A new code for a pending sign-in; the old one stops working',
        ],
        [
          authPaths.codeMailStatus,
          "Whether a pending sign-in's newest code mail was sent, waits, or is failing",
        ],
        [authPaths.refreshToken, 'A new access token for the refresh cookie, which is rotated'],
        [authPaths.logout, 'Ends the session of the refresh cookie and clears it'],
      ];
      for (const [path, summary] of posts) {
        const { tags, summary: documented, statuses } = outline(paths[path]!.post!);
        expect({ tags, summary: documented, statuses }, path).toEqual({
          tags: ['auth'],
          summary,
          statuses: ['200', ...errorAnswers],
        });
      }

      expect(outline(paths[authPaths.profile]!.get!)).toEqual({
        tags: ['auth'],
        summary: 'The signed-in customer with the current plan',
        security: [{ bearer: [] }],
        statuses: ['200', '401', '503'],
      });
    },
    BUILDS_AN_APP,
  );
});
