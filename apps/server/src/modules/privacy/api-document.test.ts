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
      const steps = [
        privacyPaths.closeAccountCode,
        privacyPaths.closeAccount,
        privacyPaths.emailChangeCode,
        privacyPaths.emailChange,
      ];
      for (const path of steps) {
        const post = outline(paths[path]!.post!);
        expect(post.tags, path).toEqual(['privacy']);
        expect(post.security, path).toEqual([{ bearer: [] }]);
        expect(post.summary, path).toEqual(expect.any(String));
        expect(post.statuses, path).toEqual(
          expect.arrayContaining(['200', '400', '401', '409', '429']),
        );
      }
      const dataExport = paths[privacyPaths.dataExport]!;
      expect(outline(dataExport.get!)).toMatchObject({
        tags: ['privacy'],
        security: [{ bearer: [] }],
        statuses: expect.arrayContaining(['200', '401']),
      });
      expect(outline(dataExport.post!)).toMatchObject({
        tags: ['privacy'],
        security: [{ bearer: [] }],
        statuses: expect.arrayContaining(['202', '401', '409', '429']),
      });
      // opened from the mail in a new tab: the signed link is the credential
      const download = outline(
        paths[privacyPaths.dataExportDownload.replace(':exportId', '{exportId}')]!.get!,
      );
      expect(download).toMatchObject({
        tags: ['privacy'],
        security: [],
        statuses: expect.arrayContaining(['200', '403', '404', '410']),
      });
      expect(outline(paths[privacyPaths.closeAccount]!.post!).statuses).toContain('502');
    },
    BUILDS_AN_APP,
  );
});
