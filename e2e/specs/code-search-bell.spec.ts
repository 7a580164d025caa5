import type { Page } from '@playwright/test';
import { notificationPaths } from '@portal/contract';
import { confirmBillingAndPay } from '../support/billing';
import {
  expect,
  expectAccessible,
  fillCredentials,
  requestCode,
  signIn,
  test,
} from '../support/fixtures';

/*
 * The code step's countdown and masked address, the consent search across every page with its
 * no-match state, and the bell's popover with its links and "Mark all read": each at a desktop
 * width and a phone width, with axe on every open dialog and popover.
 */

const WIDTHS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const detailButtons = (page: Page) =>
  page.getByRole('button', { name: /^View details of consent / });

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
    });

    test('the code step counts down to Resend Code and names the masked address', async ({
      page,
      customer,
    }) => {
      // the page's clock runs, and the test moves it on by whole stretches
      await page.clock.install();
      await page.goto('/login');
      await fillCredentials(page, customer);
      await requestCode(page, customer.email);

      const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
      await expect(dialog).toBeVisible();
      // the address as its first letter, three stars and the whole domain
      const masked = customer.email.replace(/^(.)[^@]*/, '$1***');
      await expect(dialog).toContainText(`Code sent to ${masked}. It is valid for 10 minutes.`);
      await expect(dialog).not.toContainText(customer.email);
      const resend = dialog.getByRole('button', { name: 'Resend Code' });
      await expect(resend).toBeDisabled();
      await expect(dialog).toContainText(/You can ask for a new code in (1:00|0:5\d)\./);
      await expectAccessible(page, 'code dialog');

      await page.clock.runFor(15_000);
      // 15 s on: 0:45 less the moments the checks above took
      await expect(dialog).toContainText(/You can ask for a new code in 0:[34]\d\./);
      await expect(resend).toBeDisabled();
      await page.clock.runFor(45_000);
      await expect(resend).toBeEnabled();
      await expect(dialog).not.toContainText('You can ask for a new code');
    });

    test('the consent search finds consents on every page and names a search that finds none', async ({
      page,
      customer,
    }) => {
      await signIn(page, customer);
      await page.goto('/consents');
      const pager = page.getByRole('navigation', { name: 'Pagination' });
      await expect(pager).toContainText(/Page 1 of \d+/);

      // a consent that is only on the second page
      await pager.getByRole('button', { name: 'Next' }).click();
      await expect(pager).toContainText(/Page 2 of/);
      const firstRow = detailButtons(page).first();
      const label = (await firstRow.getAttribute('aria-label'))!;
      const consentId = label.replace('View details of consent ', '');
      await pager.getByRole('button', { name: 'Previous' }).click();
      await expect(pager).toContainText(/Page 1 of/);

      const search = page.getByRole('searchbox', { name: 'Search consents' });
      await search.fill(consentId.toUpperCase());
      await expect(detailButtons(page)).toHaveCount(1);
      await expect(
        page.getByRole('button', { name: `View details of consent ${consentId}` }),
      ).toBeVisible();
      await expect(pager).toHaveCount(0);
      await expect(page).toHaveURL(/search=/);

      // wildcards typed by the customer match themselves, so this finds nothing
      await search.fill('%_');
      await expect(page.getByText('No consents match “%_”')).toBeVisible();
      await expect(page.getByText('No consents found')).toHaveCount(0);
      await expect(pager).toHaveCount(0);
      await expectAccessible(page, 'consents, no match');

      await page.getByRole('button', { name: 'Clear search' }).click();
      await expect(search).toHaveValue('');
      await expect(pager).toContainText(/Page 1 of/);
      expect(await detailButtons(page).count()).toBeGreaterThan(0);
    });

    test('the bell opens a popover beside it whose items lead to their order', async ({
      page,
      customer,
    }) => {
      await signIn(page, customer);
      const bell = page.getByRole('button', { name: /^Notifications/ });
      // clear anything there already, so that the purchase below is the news
      await bell.click();
      const popover = page.getByRole('dialog', { name: 'Notifications' });
      await expect(popover).toBeVisible();
      const markAll = popover.getByRole('button', { name: 'Mark all read' });
      const dot = page.getByTestId('notification-dot');
      // Marks what the list shows. News written since it was read (the hourly reminders, say)
      // stays unseen, comes up marked New, and is read in turn.
      const readAll = async () => {
        for (let round = 0; round < 3 && (await markAll.isVisible()); round++) {
          const [marked] = await Promise.all([
            page.waitForResponse((res) => res.url().endsWith(notificationPaths.seen)),
            markAll.click(),
          ]);
          const { unseen } = (await marked.json()) as { unseen: number };
          if (unseen === 0) break;
          await expect(popover.getByText('New:')).toHaveCount(unseen);
        }
        await expect(dot).toHaveCount(0);
      };
      await readAll();
      await page.keyboard.press('Escape');
      await expect(popover).toBeHidden();
      await expect(bell).toBeFocused();

      // a purchase through the sandbox gateway
      await page.goto('/plans');
      await page
        .getByRole('button', { name: /^Purchase Plan/ })
        .first()
        .click();
      await page.waitForURL('**/orders?planId=*');
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      await confirmBillingAndPay(page);
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(/\/orders\?tab=history/);

      await expect(page.getByTestId('notification-dot')).toBeVisible();
      await bell.click();
      await expect(popover).toBeVisible();

      // anchored to the bell, inside the screen, with the page not dimmed behind it
      const bellBox = (await bell.boundingBox())!;
      const box = (await popover.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(bellBox.y + bellBox.height);
      expect(box.y - (bellBox.y + bellBox.height)).toBeLessThan(24);
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      expect(await page.evaluate(() => document.body.style.pointerEvents)).toBe('');
      await expect(page.locator('[aria-modal="true"]')).toHaveCount(0);

      const payment = popover.getByRole('listitem').filter({ hasText: 'Payment completed' });
      await expect(payment.first()).toContainText('New:');
      await expect(
        popover.getByRole('listitem').filter({ hasText: 'Plan activated' }).first(),
      ).toContainText('New:');
      await expectAccessible(page, 'bell popover');

      await readAll();
      await expect(bell).toHaveAccessibleName('Notifications');
      await expect(payment.first()).not.toContainText('New:');

      await page.goto('/dashboard');
      await bell.click();
      await popover
        .getByRole('link', { name: /Open Order #[0-9A-F]{6}/ })
        .first()
        .click();
      await page.waitForURL(/\/orders\?tab=history&order=[0-9a-f-]{36}$/);
      await expect(popover).toBeHidden();
    });
  });
}
