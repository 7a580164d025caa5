import type { Page, TestInfo } from '@playwright/test';
import {
  expect,
  expectAccessible,
  fillCredentials,
  requestCode,
  signIn,
  signInOnScreen,
  test,
} from '../support/fixtures';
import { confirmBillingAndPay } from '../support/billing';
import { expectFitsScreen, expectToastsCoverNoControl, saveScreen } from '../support/layout';

/*
 * Every screen, walked twice: by the desktop project at 1366 × 900 and by the phone project at
 * 390 × 844 with touch. On each screen (and each dialog and toast in its open state) nothing of a
 * table or list leaves the viewport, the page does not scroll sideways, axe passes, and on the
 * phone every control is at least 44 × 44 px and 8 px from the next. Screenshots of every screen
 * go to e2e/test-results/screens/{project}/ for a reviewer.
 */

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test.beforeEach(async ({ page }, testInfo) => {
  if (!isTouch(testInfo)) await page.setViewportSize({ width: 1366, height: 900 });
});

const isTouch = (testInfo: TestInfo) => testInfo.project.use.hasTouch === true;

/** The checks every screen gets, then its screenshot. */
function screenChecks(page: Page, testInfo: TestInfo) {
  return async (name: string) => {
    await expectFitsScreen(page, name, { touch: isTouch(testInfo) });
    await expectAccessible(page, name);
    await expectToastsCoverNoControl(page, name);
    await saveScreen(page, testInfo, name);
  };
}

/** A toast fully shown (its entrance animation over), so that axe sees its real colours. */
async function toastShown(page: Page, text: string) {
  const toast = page.locator('[data-sonner-toast]', { hasText: text });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveCSS('opacity', '1');
  return toast;
}

test('the sign-in screens, the code dialog and the password reset pages', async ({
  page,
  customer,
}, testInfo) => {
  const check = screenChecks(page, testInfo);
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  await expect(page).toHaveTitle('Login · Customer Portal');
  if (isTouch(testInfo)) {
    // the form comes first on a phone: its first field is above the fold
    const email = await page.getByLabel('Email').boundingBox();
    expect(email!.y + email!.height).toBeLessThanOrEqual(844);
  }
  await check('01-login');

  await fillCredentials(page, customer);
  await requestCode(page, customer.email);
  const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Verification code').fill('12345');
  await check('02-two-factor-dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.waitForURL('**/reset-password');
  await expect(page).toHaveTitle('Reset Password · Customer Portal');
  await check('03-reset-password-request');
  await page.goto('/reset-password?token=not-a-real-token');
  await expect(page.getByRole('heading', { name: 'Set New Password' })).toBeVisible();
  await expect(page).toHaveTitle('Set New Password · Customer Portal');
  await check('04-reset-password-confirm');
});

test('the dashboard, the profile with its dialog, the activity, the bell and the menu', async ({
  page,
  customer,
}, testInfo) => {
  const check = screenChecks(page, testInfo);
  // through the screens: the sign-in's toast is checked on the dashboard
  await signInOnScreen(page, customer);
  // The toast goes 4 s after it came unless the pointer is on it; on a busy machine the
  // dashboard takes longer to load, so the pointer is put on it at once, where it stays.
  const toastBox = await page
    .locator('[data-sonner-toast]', { hasText: 'Login successful!' })
    .boundingBox({ timeout: 3_000 });
  await page.mouse.move(toastBox!.x + toastBox!.width / 2, toastBox!.y + toastBox!.height / 2);
  await expect(
    page.getByRole('heading', { name: `Welcome back, ${customer.companyName}!` }),
  ).toBeVisible();
  await expect(page.getByRole('main').getByText('Loading dashboard')).toHaveCount(0);
  await toastShown(page, 'Login successful!');
  await expect(page).toHaveTitle('Dashboard · Customer Portal');
  await check('05-dashboard-with-toast');

  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: customer.companyName })).toBeVisible();
  await expect(page).toHaveTitle('Profile · Customer Portal');
  await check('06-profile');
  const name = await page.getByRole('heading', { name: customer.companyName }).evaluate((h) => ({
    scroll: h.scrollWidth,
    client: h.clientWidth,
  }));
  expect(name.scroll, 'the company name is cut off').toBeLessThanOrEqual(name.client);
  await page.getByRole('main').getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByRole('dialog', { name: 'Change Password' })).toBeVisible();
  await check('07-change-password-dialog');
  await page.keyboard.press('Escape');

  await page.goto('/activity');
  await expect(page.getByRole('listitem').filter({ hasText: 'Signed in' }).first()).toBeVisible();
  await expect(page).toHaveTitle('Activity · Customer Portal');
  await check('08-activity');

  await page.getByRole('button', { name: /^Notifications/ }).click();
  await expect(page.getByRole('dialog', { name: 'Notifications' })).toBeVisible();
  await check('09-notifications-dialog');
  await page.keyboard.press('Escape');

  if (isTouch(testInfo)) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    await check('10-menu');
    await page.keyboard.press('Escape');
  }
});

test('plans, order creation, the checkout and the order history', async ({
  page,
  customer,
}, testInfo) => {
  const check = screenChecks(page, testInfo);
  await signIn(page, customer);
  await page.goto('/plans');
  await expect(page.getByRole('heading', { name: 'Enterprise' })).toBeVisible();
  await expect(page).toHaveTitle('Plans · Customer Portal');
  await expect(page.getByText('+ GST').first()).toBeVisible();
  await check('11-plans-cards');
  await page.getByRole('button', { name: 'Table View' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Enterprise' })).toBeVisible();
  await check('12-plans-table');

  await page.getByRole('button', { name: 'Purchase Plan Enterprise' }).click();
  await page.waitForURL(/\/orders\?planId=/);
  await expect(page).toHaveTitle('Orders · Customer Portal');
  await toastShown(page, 'Enterprise plan selected!');
  const proceed = page.getByRole('button', { name: 'Proceed to Payment' });
  if (isTouch(testInfo)) {
    // the total and the button stay in sight while the form scrolls
    await expect(proceed).toBeInViewport();
    const bar = await proceed.boundingBox();
    const toast = await page.locator('[data-sonner-toast]').first().boundingBox();
    expect(toast!.y + toast!.height, 'the toast sits above the sticky bar').toBeLessThanOrEqual(
      bar!.y,
    );
  }
  await check('13-order-create-with-toast');

  await proceed.click();
  await confirmBillingAndPay(page, { check: (name) => check(`13b-${name}`) });
  await page.waitForURL(/\/sandbox\/razorpay\/checkout\/plink_/);
  await saveScreen(page, testInfo, '14-sandbox-checkout');
  await page.getByRole('button', { name: 'Fail payment' }).click();
  await page.waitForURL(/\/orders\?tab=history/);
  const row = page.getByRole('row').filter({ hasText: 'Enterprise' }).first();
  await expect(row).toContainText('Failed');
  await expect(row).toContainText(/#[0-9A-F]{6}/);
  await expect(row).toContainText(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/);
  await check('15-order-history');

  // an error stays until dismissed, and covers nothing that cannot scroll away
  // aria-disabled, not disabled: it stays reachable and says why it does nothing
  await row.getByRole('button', { name: /Receipt/ }).focus();
  await page.keyboard.press('Enter');
  await toastShown(page, 'Receipt not available for this order.');
  await check('16-order-history-with-error');
  await page.waitForTimeout(5000);
  await expect(page.getByText('Receipt not available for this order.')).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss', exact: true }).click();
  await expect(page.getByText('Receipt not available for this order.')).toBeHidden();
});

test('plugins, consents and the consent dialogs', async ({ page, customer }, testInfo) => {
  const check = screenChecks(page, testInfo);
  await signIn(page, customer);
  await page.goto('/plugins');
  await expect(page.getByRole('row').filter({ hasText: 'Windows' })).toBeVisible();
  await expect(page).toHaveTitle('Plugins · Customer Portal');
  await check('17-plugins');

  await page.goto('/consents');
  await expect(page.getByRole('button', { name: /View details/ }).first()).toBeVisible();
  await expect(page).toHaveTitle('Consents · Customer Portal');
  await check('18-consents');

  await page.getByLabel('Filter by status').selectOption('Expired');
  await expect(page.getByRole('row').filter({ hasText: 'Expired' }).first()).toBeVisible();
  await page
    .getByRole('button', { name: /View details/ })
    .first()
    .click();
  const details = page.getByRole('dialog', { name: 'Consent Details' });
  await expect(details).toBeVisible();
  await expect(details.getByText('Expired', { exact: true }).first()).toBeVisible();
  await check('19-consent-details');
  await details.getByRole('button', { name: 'Copy Partner ID' }).click();
  await toastShown(page, 'Partner ID copied to clipboard!');
  await check('20-consent-details-with-toast');
  await details.getByRole('button', { name: 'Close' }).last().click();
  await expect(details).toBeHidden();
  // the toast's own time runs out during the next checks otherwise: axe would meet it mid-fade
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);

  await page
    .getByRole('button', { name: /^Delete consent/ })
    .first()
    .click();
  const confirm = page.getByRole('dialog', { name: 'Delete Consent' });
  await expect(confirm).toContainText(
    'Are you sure you want to delete this consent? This action cannot be undone.',
  );
  await check('21-delete-consent-dialog');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
});

test('security, invoices, exports and privacy', async ({ page, customer }, testInfo) => {
  const check = screenChecks(page, testInfo);
  await signIn(page, customer);
  // each page with what shows that its data has come, not only its frame
  const pages = [
    ['/security', 'Security', page.getByText('This device')],
    [
      '/invoices',
      'Invoices',
      page.locator('main table[aria-busy="false"], main :text("No invoices yet")'),
    ],
    ['/exports', 'Exports', page.getByLabel('What to export')],
    ['/privacy', 'Privacy', page.getByRole('button', { name: 'Ask for my data' })],
  ] as const;
  for (const [index, [url, title, loaded]] of pages.entries()) {
    await page.goto(url);
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(page).toHaveTitle(`${title} · Customer Portal`);
    await expect(loaded.first()).toBeVisible();
    await check(`${22 + index}-${title.toLowerCase()}`);
  }
});
