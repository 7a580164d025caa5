import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test, type Credentials } from '../support/fixtures';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const SECRETS = path.resolve(import.meta.dirname, `../.data/${PORT}/secrets.json`);

/** The sandbox bank's own client credentials, where the server keeps them (docs/consents.md). */
const sandboxBankCredentials = () => ({
  username: 'customer-portal',
  password: (JSON.parse(readFileSync(SECRETS, 'utf8')) as Record<string, string>)
    .sandboxBankClientSecret!,
});

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const rows = (page: Page) => page.locator('tbody tr');
const tile = (page: Page, label: string) =>
  page
    .getByLabel('Consent counts')
    .locator('div', { has: page.getByText(label, { exact: true }) })
    .locator('dd');

async function openConsents(page: Page, customer: Credentials) {
  await signIn(page, customer);
  await page.goto('/consents');
  await expect(page.getByRole('heading', { name: 'Consent Management' })).toBeVisible();
  await expect(
    rows(page)
      .first()
      .getByRole('button', { name: /View details/ }),
  ).toBeVisible();
}

/** The consent IDs of the rows shown. */
async function shownIds(page: Page): Promise<string[]> {
  return rows(page).locator('td:first-child p.font-mono').allTextContents();
}

/** The API paths and queries the page asks for, from now on. */
function apiRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) seen.push(url.pathname + url.search);
  });
  return seen;
}

test('shows the seeded consents with counts, filters, searches and pages', async ({
  page,
  customer,
}) => {
  const requests = apiRequests(page);
  await openConsents(page, customer);
  await expect(tile(page, 'Total')).toHaveText(/^\d+$/);
  const total = Number(await tile(page, 'Total').textContent());
  expect(total).toBeGreaterThanOrEqual(25);
  for (const label of ['Pending', 'Approved', 'Rejected', 'Expired']) {
    expect(Number(await tile(page, label).textContent())).toBeGreaterThan(0);
  }
  await expect(rows(page)).toHaveCount(10);
  await expect(page.getByText(`Page 1 of ${Math.ceil(total / 10)}`)).toBeVisible();
  await expectAccessible(page);

  // paginate
  const firstPage = await shownIds(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(`Page 2 of ${Math.ceil(total / 10)}`)).toBeVisible();
  await expect.poll(() => shownIds(page)).not.toEqual(firstPage);
  const secondPage = await shownIds(page);
  expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText(`Page 1 of ${Math.ceil(total / 10)}`)).toBeVisible();
  await expect.poll(() => shownIds(page)).toEqual(firstPage);
  // Next and Previous follow the server's cursors; the tiles are the server's counters
  const list = requests.filter((r) => r.startsWith('/api/user-consents?'));
  expect(list.filter((r) => r.includes('&after='))).toHaveLength(1);
  expect(list.filter((r) => r.includes('&before='))).toHaveLength(1);
  expect(requests.some((r) => r.startsWith('/api/dashboard/counters?userId='))).toBe(true);
  expect(requests.some((r) => r.startsWith('/api/user-consents/user/'))).toBe(false);

  // filter
  const rejected = Number(await tile(page, 'Rejected').textContent());
  await page.getByLabel('Filter by status').selectOption('Rejected');
  await expect(rows(page)).toHaveCount(Math.min(rejected, 10));
  for (const row of await rows(page).all()) {
    await expect(row.getByText('Rejected', { exact: true })).toBeVisible();
  }
  if (rejected <= 10)
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toHaveCount(0);
  await page.getByLabel('Filter by status').selectOption('All Status');
  await expect(rows(page)).toHaveCount(10);

  // search every consent, not only the page on screen
  const search = page.getByRole('searchbox', { name: 'Search consents' });
  await search.fill('GST Reconciler');
  await expect(rows(page).first()).toContainText('GST Reconciler');
  for (const row of await rows(page).all()) await expect(row).toContainText('GST Reconciler');
  await search.fill(firstPage[3]!);
  await expect(rows(page)).toHaveCount(1);
  await search.fill('no-such-consent');
  await expect(page.getByText('No consents match “no-such-consent”')).toBeVisible();
  await expect(page.getByText('Create your first consent to get started')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(rows(page)).toHaveCount(10);
});

test('shows the details of a consent and copies its ids and tokens', async ({ page, customer }) => {
  await openConsents(page, customer);
  await page.getByLabel('Filter by status').selectOption('Approved');
  await expect(rows(page).first().getByText('Approved', { exact: true })).toBeVisible();
  const [consentId] = await shownIds(page);
  await page.getByRole('button', { name: `View details of consent ${consentId}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Consent Details' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(consentId!)).toBeVisible();
  for (const text of [
    'Partner ID',
    'Document Status',
    'Authorized APIs',
    'Net Banking User ID',
    'Access Token',
    'Refresh Token',
    'Consent Date',
  ]) {
    await expect(dialog.getByText(text, { exact: true }).first()).toBeVisible();
  }
  const shownToken = await dialog.locator('code').first().textContent();
  expect(shownToken).toMatch(/^sbk_at_.{43}\.\.\.$/);
  await expectAccessible(page);

  await dialog.getByRole('button', { name: 'Copy Access Token' }).click();
  await expect(page.getByText('Access Token copied to clipboard!')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.startsWith(shownToken!.slice(0, 50))).toBe(true);
  expect(copied.length).toBeGreaterThan(50);

  await dialog.getByRole('button', { name: 'Copy Partner ID' }).click();
  await expect(page.getByText('Partner ID copied to clipboard!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^PTN-/);
  await dialog.getByRole('button', { name: 'Copy Net Banking User ID' }).click();
  await expect(page.getByText('Net Banking User ID copied to clipboard!')).toBeVisible();
  await dialog.getByRole('button', { name: 'Copy Refresh Token' }).click();
  await expect(page.getByText('Refresh Token copied to clipboard!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^sbk_rt_/);

  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toHaveCount(0);
});

test('refreshes a pending consent after the sandbox bank authorised it', async ({
  page,
  browser,
  baseURL,
  customer,
}) => {
  await openConsents(page, customer);
  await page.getByLabel('Filter by status').selectOption('Pending');
  await expect(rows(page).first().getByText('Pending', { exact: true })).toBeVisible();
  const [consentId] = await shownIds(page);

  // a signed-in customer of the portal is no one at the bank
  const anonymous = await page.request.get('/sandbox/bank');
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.text()).not.toContain(consentId!);

  const bankContext = await browser.newContext({
    baseURL,
    httpCredentials: sandboxBankCredentials(),
  });
  const bank = await bankContext.newPage();
  await bank.goto('/sandbox/bank');
  await expect(
    bank.getByRole('heading', { name: 'Account access consent requests' }),
  ).toBeVisible();
  await expectAccessible(bank);
  await bank.getByRole('button', { name: `Authorise ${consentId}` }).click();
  await expect(bank.getByRole('status')).toContainText(`Consent ${consentId} authorised.`);
  await bankContext.close();

  // still Pending in the portal until the customer refreshes it
  await page.reload();
  await page.getByLabel('Filter by status').selectOption('Pending');
  const row = rows(page).filter({ hasText: consentId! });
  await expect(row.getByText('Pending', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: `Refresh status of consent ${consentId}` }).click();
  await expect(page.getByText('Consent status refreshed!')).toBeVisible();
  // it has left the Pending list; under Approved it is there
  await expect(rows(page).filter({ hasText: consentId! })).toHaveCount(0);
  await page.getByLabel('Filter by status').selectOption('Approved');
  await expect(
    rows(page).filter({ hasText: consentId! }).getByText('Approved', { exact: true }),
  ).toBeVisible();
});

test('deletes a consent after the confirmation, and it stays gone after a reload', async ({
  page,
  customer,
}) => {
  await openConsents(page, customer);
  const total = Number(await tile(page, 'Total').textContent());
  const [consentId] = await shownIds(page);
  await page.getByRole('button', { name: `Delete consent ${consentId}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Consent' });
  await expect(dialog).toContainText(
    'Are you sure you want to delete this consent? This action cannot be undone.',
  );
  // before it is confirmed: what stops, and what becomes of the data already shared
  await expect(dialog.getByText('What stops')).toBeVisible();
  await expect(dialog).toContainText(/can no longer read .+, from /);
  await expect(dialog).toContainText(/has read so far stays with .+, under its own terms\./);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(rows(page).filter({ hasText: consentId! })).toHaveCount(1);

  await page.getByRole('button', { name: `Delete consent ${consentId}` }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Consent deleted successfully!')).toBeVisible();
  await expect(rows(page).filter({ hasText: consentId! })).toHaveCount(0);
  await expect(tile(page, 'Total')).toHaveText(String(total - 1));

  await page.reload();
  await expect(rows(page).first()).toBeVisible();
  expect(await shownIds(page)).not.toContain(consentId);
  await expect(tile(page, 'Total')).toHaveText(String(total - 1));
});
