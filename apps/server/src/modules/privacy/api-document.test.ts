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
      const steps = {
        [privacyPaths.closeAccountCode]:
          'Mails a 6-digit code to the account address, needed to close the account',
        [privacyPaths.closeAccount]:
          'Closes the account with the password and the code: every session ended, every consent revoked at the bank, personal data erased; invoices and orders kept 72 months',
        [privacyPaths.emailChangeCode]:
          'Mails a code to a new e-mail address (the password is asked again)',
        [privacyPaths.emailChange]:
          'Moves the account to the new address with the code sent to it; the old address is told',
      };
      for (const [path, summary] of Object.entries(steps)) {
        const post = outline(paths[path]!.post!);
        expect(post.tags, path).toEqual(['privacy']);
        expect(post.security, path).toEqual([{ bearer: [] }]);
        expect(post.summary, path).toBe(summary);
        expect(post.statuses, path).toEqual(
          expect.arrayContaining(['200', '400', '401', '409', '429']),
        );
      }
      const dataExport = paths[privacyPaths.dataExport]!;
      expect(outline(dataExport.get!)).toMatchObject({
        tags: ['privacy'],
        summary: 'The latest "Download my data" request: preparing, ready, failed or expired',
        security: [{ bearer: [] }],
        statuses: expect.arrayContaining(['200', '401']),
      });
      expect(outline(dataExport.post!)).toMatchObject({
        tags: ['privacy'],
        summary:
          'Asks for a ZIP of everything the portal holds about the customer (JSON and the invoice PDFs), prepared in the background; a link valid 24 hours is e-mailed when it is ready',
        security: [{ bearer: [] }],
        statuses: expect.arrayContaining(['202', '401', '409', '429']),
      });
      // opened from the mail in a new tab: the signed link is the credential
      const downloadOperation =
        paths[privacyPaths.dataExportDownload.replace(':exportId', '{exportId}')]!.get!;
      expect(downloadOperation).toMatchObject({
        description:
          'No bearer token: the link, bound to the customer and the export, works for 24 hours after the export was ready (410 after).',
      });
      expect(outline(downloadOperation)).toMatchObject({
        tags: ['privacy'],
        summary: 'Downloads a prepared data export by the signed link of its e-mail',
        security: [],
        statuses: expect.arrayContaining(['200', '403', '404', '410']),
      });
      expect(outline(paths[privacyPaths.closeAccount]!.post!).statuses).toContain('502');
    },
    BUILDS_AN_APP,
  );
});
