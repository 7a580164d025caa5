import { describe, expect, it } from 'vitest';
import { preferencesPaths, privacyPaths } from '@portal/contract';
import { BUILDS_AN_APP, documentedOperations, outline } from '../../test/api-document';

describe('GET /api/docs/json', () => {
  it(
    "names the customer's own data calls under privacy, with their sign-in and every answer",
    async () => {
      const paths = await documentedOperations();
      const preferences = paths[preferencesPaths.notifications]!;
      expect(outline(preferences.get!)).toMatchObject({
        tags: ['privacy'],
        security: [{ bearer: [] }],
        statuses: ['200', '401', '503'],
      });
      expect(outline(preferences.put!)).toMatchObject({
        tags: ['privacy'],
        statuses: ['200', '400', '401', '413', '415', '503'],
      });
      for (const path of Object.values(privacyPaths)) {
        const post = outline(paths[path]!.post!);
        expect(post.tags, path).toEqual(['privacy']);
        expect(post.security, path).toEqual([{ bearer: [] }]);
        expect(post.summary, path).toEqual(expect.any(String));
        expect(post.statuses, path).toEqual(
          expect.arrayContaining(['200', '400', '401', '409', '429']),
        );
      }
      expect(outline(paths[privacyPaths.closeAccount]!.post!).statuses).toContain('502');
    },
    BUILDS_AN_APP,
  );
});
