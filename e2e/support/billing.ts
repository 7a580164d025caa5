import type { Locator, Page } from '@playwright/test';
import { DEMO, expect, expectAccessible } from './fixtures';

/**
 * A billing address for the demo's profile, which every test customer has: its GSTIN
 * (DEMO.gstNo) is registered in Maharashtra (27).
 */
export const DEMO_BILLING = {
  gstin: DEMO.gstNo,
  addressLine1: 'Office 4, Baner Road',
  city: 'Pune',
  pin: '411045',
  stateCode: '27',
  stateName: 'Maharashtra',
} as const;

/** Presses Tab until `target` has focus, as a keyboard user would. */
export async function tabTo(page: Page, target: Locator, maxPresses = 80) {
  for (let presses = 0; presses < maxPresses; presses++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${target} was not reached with ${maxPresses} presses of Tab`);
}

interface ConfirmOptions {
  /** Tab, type and Enter only, as a keyboard user would. */
  keyboard?: boolean;
  /** The checks each dialog gets in its open state; axe by default. */
  check?: (name: string) => Promise<void>;
}

/**
 * After "Proceed to Payment": gives the billing address when none is saved yet ("Add your
 * billing address"), then confirms the details shown ("Confirm billing details") with
 * "Confirm and pay". Each dialog is checked (axe at least) as it opens.
 */
export async function confirmBillingAndPay(page: Page, options: ConfirmOptions = {}) {
  const { keyboard = false } = options;
  const check = options.check ?? ((name: string) => expectAccessible(page, name));
  const address = page.getByRole('dialog', { name: 'Add your billing address' });
  const confirm = page.getByRole('dialog', { name: 'Confirm billing details' });
  const save = address.getByRole('button', { name: 'Save and continue' });
  const pay = confirm.getByRole('button', { name: 'Confirm and pay' });

  // the dialog opens while the details load; either button says they have come
  await expect(save.or(pay)).toBeVisible();
  if (await save.isVisible()) {
    await check('billing-address-dialog');
    const fields: [string, string][] = [
      ['GSTIN', DEMO_BILLING.gstin],
      ['Address line 1', DEMO_BILLING.addressLine1],
      ['City', DEMO_BILLING.city],
      ['PIN code', DEMO_BILLING.pin],
    ];
    for (const [label, value] of fields) {
      const field = address.getByLabel(label, { exact: true });
      if (keyboard) {
        await tabTo(page, field);
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.type(value);
      } else await field.fill(value);
    }
    const state = address.getByLabel('State', { exact: true });
    if (keyboard) {
      await tabTo(page, state);
      // a closed select picks the option whose label starts with what is typed
      await page.keyboard.type(DEMO_BILLING.stateName);
    } else await state.selectOption(DEMO_BILLING.stateCode);
    await expect(state).toHaveValue(DEMO_BILLING.stateCode);
    if (keyboard) {
      await tabTo(page, save);
      await page.keyboard.press('Enter');
    } else await save.click();
  }

  await expect(pay).toBeVisible();
  await expect(confirm).toContainText(DEMO_BILLING.gstin);
  await expect(confirm).toContainText(DEMO_BILLING.addressLine1);
  await expect(confirm).toContainText(DEMO_BILLING.stateName);
  await check('billing-confirm-dialog');
  if (keyboard) {
    await tabTo(page, pay);
    await page.keyboard.press('Enter');
  } else await pay.click();
}
