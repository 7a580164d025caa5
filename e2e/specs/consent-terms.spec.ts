// The sandbox bank holds each consent's terms and records each partner read (decision 044): its
// page shows both, for the demo's seeded consents (every test's customer has them), at a
// desktop's width and again at a phone's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test, type Credentials } from '../support/fixtures';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const SECRETS = path.resolve(import.meta.dirname, `../.data/${PORT}/secrets.json`);
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };

/** The sandbox bank's own client credentials, where the server keeps them (docs/consents.md). */
const bankCredentials = () => ({
  username: 'customer-portal',
  password: (JSON.parse(readFileSync(SECRETS, 'utf8')) as Record<string, string>)
    .sandboxBankClientSecret!,
});

/** The id of an approved consent, as the customer's list shows it. */
async function approvedConsentId(page: Page, customer: Credentials) {
  await signIn(page, customer);
  await page.goto('/consents');
  const approved = page
    .locator('tbody tr')
    .filter({ has: page.getByText('Approved', { exact: true }) })
    .first();
  await expect(approved).toBeVisible();
  return (await approved.locator('td').first().locator('p').first().textContent())!.trim();
}

const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sept',
  'Oct',
  'Nov',
  'Dec',
];

/** The bank page's "24 Nov 2026, 3:05 pm" as the portal writes it: "24/11/2026, 15:05". */
function portalDateTime(text: string) {
  const match = /Last: (\d{1,2}) (\w+) (\d{4}), (\d{1,2}):(\d{2})\s*(am|pm)/i.exec(text);
  expect(match, `a time in ${text}`).not.toBeNull();
  const [, day, month, year, hour, minute, half] = match!;
  const hours = (Number(hour) % 12) + (half!.toLowerCase() === 'pm' ? 12 : 0);
  const monthNumber = MONTHS.findIndex((name) => month!.startsWith(name.slice(0, 3))) + 1;
  const two = (n: number | string) => String(n).padStart(2, '0');
  return `${two(day!)}/${two(monthNumber)}/${year}, ${two(hours)}:${minute}`;
}

async function openBank(browser: Browser, baseURL: string, viewport: { width: number }) {
  const context = await browser.newContext({
    baseURL,
    httpCredentials: bankCredentials(),
    viewport: { width: viewport.width, height: 844 },
  });
  const bank = await context.newPage();
  await bank.goto('/sandbox/bank');
  await expect(
    bank.getByRole('heading', { name: 'Account access consent requests' }),
  ).toBeVisible();
  return { bank, close: () => context.close() };
}

function specs(width: number) {
  test('shows the terms the bank holds and its record of the partner’s read', async ({
    page,
    browser,
    baseURL,
    customer,
  }) => {
    const consentId = await approvedConsentId(page, customer);
    const { bank, close } = await openBank(browser, baseURL!, { width });
    const headers = await bank.getByRole('columnheader').allTextContents();
    expect(headers).toEqual([
      'Consent ID',
      'Status',
      'Permissions',
      'Created',
      'Expires',
      'Terms',
      'Reads',
      'Decision',
    ]);
    const row = bank.getByRole('row').filter({ hasText: consentId });
    await expect(row.getByRole('cell').nth(5)).toContainText(/Reads a day: \d+/);
    await expect(row.getByRole('cell').nth(5)).toContainText('Transactions:');
    // the seeded read is on the bank's record, and the portal shows it as the last access
    const reads = row.getByRole('cell').nth(6);
    await expect(reads).toContainText(/^1 allowed, 0 refused\s*Last: /);
    const lastRead = portalDateTime((await reads.textContent())!);
    await expectAccessible(bank, 'sandbox bank');
    await close();

    await page.getByRole('button', { name: `View details of consent ${consentId}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Consent Details' });
    await expect(
      dialog.getByRole('heading', { name: 'Last accessed' }).locator('xpath=..'),
    ).toContainText(lastRead);
  });
}

test.describe('at a desktop’s width', () => {
  specs(1280);
});

test.describe('at a phone’s width', () => {
  test.use(PHONE);
  specs(390);
});
