// Consents as the consent dashboards show them (issue 14, part 4), on the demo's seeded consents
// (every test's customer has them), at a desktop's width and again at a phone's.
import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test, type Credentials } from '../support/fixtures';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };

async function openConsents(page: Page, customer: Credentials) {
  await signIn(page, customer);
  await page.goto('/consents');
  await expect(page.getByRole('heading', { name: 'Consent Management' })).toBeVisible();
  await expect(
    page.getByRole('button', { name: /^View details of consent / }).first(),
  ).toBeVisible();
}

function specs() {
  test('shows a consent’s terms in order, with the spec’s items under Technical details', async ({
    page,
    customer,
  }) => {
    await openConsents(page, customer);
    // an approved consent holds tokens, and its partner has read the data
    const approved = page
      .locator('tbody tr')
      .filter({ has: page.getByText('Approved', { exact: true }) })
      .first();
    const consentId = (await approved.locator('td').first().locator('p').first().textContent())!;
    await page.getByRole('button', { name: `View details of consent ${consentId}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Consent Details' });
    await expect(dialog).toContainText(consentId);
    const headings = await dialog.getByRole('heading').allTextContents();
    expect(headings.slice(1, 10)).toEqual([
      'What is shared',
      'Purpose',
      'Transaction period',
      'How often',
      'How long the data is kept',
      'Granted and expires',
      'Accounts',
      'Last accessed',
      'Technical details',
    ]);
    for (const below of ['Authorized APIs', 'Token Information', 'Timeline']) {
      expect(headings.indexOf(below)).toBeGreaterThan(headings.indexOf('Technical details'));
    }
    await expect(dialog.getByText(/^Up to \d+ times? a day$/)).toBeVisible();
    await expect(
      dialog.getByRole('heading', { name: 'Last accessed' }).locator('xpath=..'),
    ).toContainText(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/);
    await expect(dialog.getByText(/^Reads made: \d+$/)).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Accounts' })).toContainText(/XXXX\d{4}/);
    // a data cluster opens to its permissions
    const cluster = dialog.getByRole('list', { name: 'What is shared' }).getByRole('group').first();
    await cluster.locator('summary').click();
    await expect(cluster).toHaveAttribute('open', '');
    await expect(cluster.getByRole('listitem').first()).toBeVisible();
    // the token block as the spec describes it: 50 characters, expiry, copy
    const token = await dialog.locator('code').first().textContent();
    expect(token).toMatch(/^sbk_at_.{43}\.\.\.$/);
    await expect(dialog.getByRole('button', { name: 'Copy Access Token' })).toBeVisible();
    await expectAccessible(page, 'consent details');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toHaveCount(0);
  });

  test('shows purpose and expiry in the list', async ({ page, customer }) => {
    await openConsents(page, customer);
    await expect(page.getByText('Bank reconciliation in TallyPrime').first()).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Expires' })).toHaveCount(1);
    await expectAccessible(page, 'consents list');
  });

  test('names the partner and what stopping means below the spec’s delete confirmation', async ({
    page,
    customer,
  }) => {
    await openConsents(page, customer);
    const row = page.locator('tbody tr').first();
    const partner = (await row.locator('td').nth(1).locator('p').first().textContent())!;
    await row.getByRole('button', { name: /^Delete consent / }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Consent' });
    await expect(dialog).toContainText(
      'Are you sure you want to delete this consent? This action cannot be undone.',
    );
    await expect(dialog).toContainText(`${partner} will no longer be able to read your bank data.`);
    await expect(dialog.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
    await expectAccessible(page, 'delete confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
  });

  test('keeps revoked and expired consents in History', async ({ page, customer }) => {
    await openConsents(page, customer);
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(page).toHaveURL(/view=history/);
    const table = page.getByRole('table', { name: 'Past consents' });
    await expect(table.getByText('Revoked').first()).toBeVisible();
    await expect(table.getByText('Expired').first()).toBeVisible();
    await expectAccessible(page, 'History');
    await table
      .getByRole('button', { name: /^View details of past consent / })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Consent Details' });
    await expect(dialog.getByRole('heading', { name: 'Technical details' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Refresh Status' })).toHaveCount(0);
    await expectAccessible(page, 'past consent details');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await page.getByRole('tab', { name: 'Current' }).click();
    await expect(page.getByRole('table', { name: 'Consents' })).toBeVisible();
  });

  test('pauses an approved consent at the bank and resumes it', async ({ page, customer }) => {
    await openConsents(page, customer);
    await page.getByLabel('Filter by status').selectOption('Approved');
    await page
      .getByRole('button', { name: /^View details of consent / })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Consent Details' });
    await dialog.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByText('Consent paused', { exact: true })).toBeVisible();
    await expect(dialog.getByText(/^Paused since .+ cannot read your bank data/)).toBeVisible();
    await expectAccessible(page, 'paused consent details');
    await dialog.getByRole('button', { name: 'Resume' }).click();
    await expect(page.getByText('Consent resumed', { exact: true })).toBeVisible();
    await expect(dialog.getByText(/^Paused since/)).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Pause' })).toBeVisible();
  });

  test('asks the partner to reconnect an expired or expiring consent', async ({
    page,
    customer,
  }) => {
    await openConsents(page, customer);
    // every expired consent offers it
    await page.getByLabel('Filter by status').selectOption('Expired');
    const button = page.getByRole('button', { name: /^Reconnect consent / }).first();
    const label = (await button.getAttribute('aria-label'))!;
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Reconnect' });
    await expect(dialog).toContainText('will be asked to request a fresh consent');
    await expectAccessible(page, 'Reconnect');
    await dialog.getByRole('button', { name: 'Ask to reconnect' }).click();
    await expect(page.getByText(/has been asked to reconnect\.$/)).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('button', { name: label, exact: true })).toHaveCount(0);
  });
}

test.describe('at a desktop’s width', () => {
  specs();
});

test.describe('at a phone’s width', () => {
  test.use(PHONE);
  specs();
});
