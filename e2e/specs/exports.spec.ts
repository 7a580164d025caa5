import { readFile } from 'node:fs/promises';
import { expect, expectAccessible, signIn, test } from '../support/fixtures';

const widths = [
  ['desktop', { viewport: { width: 1280, height: 900 } }],
  ['phone', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }],
] as const;

/** Today in India as the screen writes it: 15/08/2026. */
const today = () =>
  new Intl.DateTimeFormat('en-IN', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'Asia/Kolkata',
  }).format(new Date());

for (const [width, use] of widths) {
  test.describe(`exports on a ${width}`, () => {
    test.use(use);

    test('downloads the activity as CSV for Excel, and refuses an end before the start', async ({
      page,
      customer,
    }) => {
      await signIn(page, customer);
      if (width === 'phone') await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('link', { name: 'Exports' }).click();
      await expect(page).toHaveURL(/\/exports$/);
      // the sign-in's toast leaves before axe looks at the screen
      await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
      await expect(page.getByRole('heading', { name: 'Exports', level: 1 })).toBeVisible();
      await expectAccessible(page, 'the Exports screen');

      await page.getByLabel('What to export').selectOption({ label: 'Activity (CSV)' });
      await page.getByLabel('From', { exact: true }).fill('02/01/2026');
      await page.getByLabel('To', { exact: true }).fill('01/01/2026');
      await page.getByRole('button', { name: 'Download' }).click();
      await expect(page.getByLabel('To', { exact: true })).toHaveAccessibleDescription(
        'The end date must be on or after the start date',
      );
      await expectAccessible(page, 'the Exports screen with a refused date');

      await page.getByLabel('From', { exact: true }).fill('01/04/2026');
      await page.getByLabel('To', { exact: true }).fill(today());
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(
        /^activity-2026-04-01-to-\d{4}-\d{2}-\d{2}\.csv$/,
      );
      const bytes = await readFile((await download.path())!);
      // the byte-order mark that makes Excel read UTF-8
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = bytes.subarray(3).toString('utf8').split('\r\n');
      expect(lines[0]).toBe('Date,Type,Title,Description,Status');
      // this sign-in is there, dated today in en-IN
      expect(lines.slice(1).some((line) => line.startsWith(`"${today()}, `))).toBe(true);
      await expect(page.getByRole('status')).toHaveText(
        `Your download of ${download.suggestedFilename()} has started.`,
      );
    });

    test('offers the invoice PDFs by financial year', async ({ page, customer }) => {
      await signIn(page, customer);
      await page.goto('/exports');
      await page
        .getByLabel('What to export')
        .selectOption({ label: 'Invoice PDFs of a financial year (ZIP)' });
      await expect(page.getByLabel('From', { exact: true })).toBeHidden();
      await page.getByLabel('Financial year').selectOption('2026-27');
      await expectAccessible(page, 'the Exports screen for the invoice PDFs');
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('invoice-pdfs-2026-27.zip');
      const bytes = await readFile((await download.path())!);
      // a ZIP's end-of-central-directory record, whatever the customer's invoices are
      expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]))).toBe(true);
    });
  });
}
