import { describe, expect, it } from 'vitest';
import { BUILDS_AN_APP, documentedOperations, outline } from '../../test/api-document';

// an open route declares that it needs no credentials
const open: unknown[] = [];
const openAnswers = ['200', '400', '413', '415', '429', '503'];

describe('the OpenAPI document', () => {
  it(
    'describes the password change with bearer access, and forgot and reset password as open routes, each with its answers',
    async () => {
      const paths = await documentedOperations();
      expect(outline(paths['/api/users/{id}']!.put!)).toEqual({
        tags: ['users'],
        summary: "Changes the signed-in customer's password; other sessions end",
        security: [{ bearer: [] }],
        statuses: ['200', '400', '401', '403', '413', '415', '429', '503'],
      });
      expect(outline(paths['/api/users/forgot-password']!.post!)).toEqual({
        tags: ['users'],
        summary: 'Mails a reset link when the account exists; the answer never tells',
        security: open,
        statuses: openAnswers,
      });
      expect(outline(paths['/api/users/reset-password']!.post!)).toEqual({
        tags: ['users'],
        summary: 'Sets a new password with a reset link; every session ends',
        security: open,
        statuses: openAnswers,
      });
    },
    BUILDS_AN_APP,
  );
});
