import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from '../support/fixtures';

const billingCard = (page: Page) =>
  page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Billing Details', exact: true }) });

const widths = [
  ['desktop', { viewport: { width: 1280, height: 900 } }],
  ['phone', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }],
] as const;

test('an order with no billing address asks for one before payment', async ({ page, customer }) => {
  await signIn(page, customer);
  await page.goto('/plans');
  await page.getByRole('button', { name: 'Purchase Plan Starter' }).click();
  await page.waitForURL(/\/orders\?planId=/);
  await expect(billingCard(page)).toContainText('No billing address yet.');
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add your billing address' });
  await expect(dialog).toContainText('Your invoice needs a billing address before payment.');
  // the form starts from the GSTIN given at sign-up
  await expect(dialog.getByLabel('GSTIN')).toHaveValue('27AAPFU0939F1ZV');
  await expectAccessible(page, 'the billing address asked for before payment');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/orders\?planId=/);
});

for (const [width, use] of widths) {
  test.describe(`billing details on a ${width}`, () => {
    test.use(use);

    test('a bad GSTIN is refused by its field, the fixed address is confirmed before payment', async ({
      page,
      customer,
    }) => {
      // each width gives its own address
      const city = width === 'desktop' ? 'Pune' : 'Nagpur';
      const pin = width === 'desktop' ? '411045' : '440001';
      await signIn(page, customer);
      await page.goto('/profile');
      const card = billingCard(page);
      await expect(card).toBeVisible();
      await expectAccessible(page, 'the profile with its billing details');
      await card
        .getByRole('button', { name: /^(Add billing address|Edit billing details)$/ })
        .click();

      const dialog = page.getByRole('dialog', { name: 'Billing details' });
      await expect(dialog).toBeVisible();
      await dialog.getByLabel('GSTIN').fill('27AAPFU0939F1ZW');
      await dialog.getByLabel('Address line 1').fill('Office 4, Baner Road');
      await dialog.getByLabel('Address line 2 (optional)').fill('');
      await dialog.getByLabel('City').fill(city);
      await dialog.getByLabel('PIN code').fill(pin);
      await dialog.getByLabel('State').selectOption({ label: 'Karnataka (29)' });
      await dialog.getByRole('button', { name: 'Save billing details' }).click();
      await expect(dialog.getByLabel('GSTIN')).toHaveAccessibleDescription(
        'This GSTIN is not valid: its last character does not match the check digit',
      );
      await expectAccessible(page, 'the billing details dialog with a bad GSTIN');

      await dialog.getByLabel('GSTIN').fill('27AAPFU0939F1ZV');
      await dialog.getByRole('button', { name: 'Save billing details' }).click();
      await expect(dialog.getByLabel('GSTIN')).toHaveAccessibleDescription(
        'This GSTIN is registered in Maharashtra (27), but the State chosen is Karnataka (29)',
      );
      await dialog.getByLabel('State').selectOption({ label: 'Maharashtra (27)' });
      await dialog.getByRole('button', { name: 'Save billing details' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText('Billing details saved')).toBeVisible();
      await expect(card).toContainText('27AAPFU0939F1ZV');
      await expect(card).toContainText(`${city} ${pin}`);
      await expect(card).toContainText('Maharashtra (27)');

      await page.goto('/plans');
      await page.getByRole('button', { name: 'Purchase Plan Starter' }).click();
      await page.waitForURL(/\/orders\?planId=/);
      await expect(billingCard(page)).toContainText('Maharashtra (27)');
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();

      const confirm = page.getByRole('dialog', { name: 'Confirm billing details' });
      await expect(confirm).toBeVisible();
      await expect(confirm).toContainText('27AAPFU0939F1ZV');
      await expect(confirm).toContainText('Office 4, Baner Road');
      await expect(confirm).toContainText(`${city} ${pin}`);
      await expect(confirm).toContainText('Maharashtra (27)');
      // the seller is in Karnataka (29): a supply to Maharashtra pays IGST
      await expect(confirm).toContainText('IGST 18%');
      await expectAccessible(page, 'the billing confirmation before payment');

      await confirm.getByRole('button', { name: 'Edit details' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit billing details' });
      await expect(edit.getByLabel('City')).toHaveValue(city);
      await expectAccessible(page, 'editing the billing details before payment');
      await edit.getByRole('button', { name: 'Cancel' }).click();

      await expect(confirm).toBeVisible();
      await confirm.getByRole('button', { name: 'Confirm and pay' }).click();
      await page.waitForURL(/\/sandbox\/razorpay\/checkout\/plink_/);
    });
  });
}
