import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Download } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from '../support/fixtures';

const SEED_DIR = path.resolve(import.meta.dirname, '../../apps/server/seed/plugins');
const WINDOWS_FILE = 'bank-connector-setup-2.4.1.cmd';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

test.describe('plugins', () => {
  test('lists the seeded installers and downloads the very bytes of one in a new tab', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    await page.getByRole('link', { name: 'Plugins' }).first().click();
    await page.waitForURL('**/plugins');
    await expect(page.getByRole('heading', { name: 'Plugin Management' })).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveText([
      'Platform',
      'File Name',
      'Version',
      'Uploaded Date',
      'Download',
    ]);

    const expected = sha256(readFileSync(path.join(SEED_DIR, WINDOWS_FILE)));
    const row = page.getByRole('row').filter({ hasText: WINDOWS_FILE });
    await expect(row).toContainText('Windows');
    await expect(row).toContainText('2.4.1');
    await expect(row).toContainText(expected);
    await expect(page.getByRole('row').filter({ hasText: 'Linux' })).toHaveCount(1);
    await expectAccessible(page);

    // the download happens in the new tab, which carries no bearer token
    const download = new Promise<Download>((resolve) => {
      page.once('download', resolve);
      page.context().on('page', (tab) => tab.once('download', resolve));
    });
    await row.getByRole('button', { name: /Download/ }).click();
    await expect(page.getByText(`Downloading ${WINDOWS_FILE}...`)).toBeVisible();
    const file = await Promise.race([
      download,
      page.waitForTimeout(15_000).then(() => {
        throw new Error('no download started');
      }),
    ]);
    expect(file.suggestedFilename()).toBe(WINDOWS_FILE);
    expect(sha256(readFileSync((await file.path())!))).toBe(expected);
  });

  test('a download link does not work once tampered with', async ({ page, customer }) => {
    await signIn(page, customer);
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('auth-storage') ?? '{}').state?.token as string,
    );
    const list = await page.request.get('/api/plugins', {
      headers: { authorization: `Bearer ${token}` },
    });
    const { plugins } = (await list.json()) as { plugins: { downloadURL: string }[] };
    const link = plugins[0]!.downloadURL;
    expect((await page.request.get(link)).status()).toBe(200);
    const tampered = link.replace(/sig=[^&]+/, 'sig=forged');
    expect((await page.request.get(tampered)).status()).toBe(403);
  });
});
