import type { Page } from '@playwright/test';
import { confirmBillingAndPay, tabTo } from '../support/billing';
import { preferencesPaths } from '@portal/contract';
import {
  expect,
  mailCount,
  signIn,
  test,
  waitForCode,
  type Credentials,
} from '../support/fixtures';

/*
 * Sign-in, a purchase up to the gateway's checkout, ending a consent, and the controls of
 * Security, Invoices, Exports and Privacy, with the keyboard only: Tab to a control, Enter, Space
 * or Escape, type. After every dialog closes, focus is back on the
 * control that opened it (or, when that is gone, on the main content), never on <body>.
 */

const announcer = (page: Page) => page.getByTestId('route-announcer');

async function typeInto(page: Page, label: string, text: string) {
  const field = page.getByLabel(label, { exact: true });
  await tabTo(page, field);
  await page.keyboard.type(text);
}

/** Types `who`'s details into the sign-in form, field by field. */
async function typeCredentials(page: Page, who: Credentials) {
  await typeInto(page, 'Email', who.email);
  await typeInto(page, 'Mobile Number', who.mobile);
  await typeInto(page, 'GST Number', who.gstNo);
  await typeInto(page, 'Tally Serial Number', who.tallySerialNo);
  await typeInto(page, 'Password', who.password);
}

async function signInByKeyboard(page: Page, customer: Credentials) {
  await page.goto('/login');
  await expect(page).toHaveTitle('Login · Customer Portal');
  await typeCredentials(page, customer);
  const secureLogin = page.getByRole('button', { name: 'Secure Login' });
  await tabTo(page, secureLogin);
  const before = mailCount(customer.email);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Verification code')).toBeFocused();
  const code = await waitForCode(customer.email, before);
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await page.waitForURL('**/dashboard');
  await expect(page).toHaveTitle('Dashboard · Customer Portal');
}

/** Follows a sidebar link with the keyboard and checks the new screen is titled and announced. */
async function goByKeyboard(page: Page, item: string, screen: string) {
  await tabTo(
    page,
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: item }),
  );
  await page.keyboard.press('Enter');
  await expect(page).toHaveTitle(`${screen} · Customer Portal`);
  await expect(announcer(page)).toHaveText(screen);
}

test.describe('by keyboard only', () => {
  test('signs in: the code dialog gives focus back to Secure Login when it is closed', async ({
    page,
    customer,
  }) => {
    await page.goto('/login');
    await typeCredentials(page, customer);
    const secureLogin = page.getByRole('button', { name: 'Secure Login' });
    await tabTo(page, secureLogin);
    let before = mailCount(customer.email);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
    await expect(dialog.getByLabel('Verification code')).toBeFocused();
    await waitForCode(customer.email, before);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(secureLogin).toBeFocused();

    // again, and this time with the code
    before = mailCount(customer.email);
    await page.keyboard.press('Enter');
    await expect(dialog.getByLabel('Verification code')).toBeFocused();
    await page.keyboard.type(await waitForCode(customer.email, before));
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard');
    await expect(page).toHaveTitle('Dashboard · Customer Portal');
    await expect(announcer(page)).toHaveText('Dashboard');

    // the bell's list, opened and closed from the keyboard
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await tabTo(page, bell);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Notifications' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Notifications' })).toBeHidden();
    await expect(bell).toBeFocused();
  });

  test('buys a plan up to the gateway checkout', async ({ page, customer }) => {
    await signInByKeyboard(page, customer);
    await goByKeyboard(page, 'Plans', 'Plans');
    await tabTo(page, page.getByRole('button', { name: 'Purchase Plan Business' }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/orders\?planId=/);
    await expect(page).toHaveTitle('Orders · Customer Portal');
    await expect(page.getByRole('radio', { name: /Business/ })).toBeChecked();
    await tabTo(page, page.getByRole('button', { name: 'Proceed to Payment' }));
    await page.keyboard.press('Enter');
    await confirmBillingAndPay(page, { keyboard: true });
    await page.waitForURL(/\/sandbox\/razorpay\/checkout\/plink_/);
    await expect(page.getByRole('button', { name: /^Pay / })).toBeVisible();
  });

  test('ends a consent: details and the confirmation give focus back, Delete is never the default', async ({
    page,
    customer,
  }) => {
    await signInByKeyboard(page, customer);
    await goByKeyboard(page, 'Consents', 'Consents');
    const view = page.getByRole('button', { name: /^View details of consent / }).first();
    await expect(view).toBeVisible();
    const consentId = (await view.getAttribute('aria-label'))!.replace(
      'View details of consent ',
      '',
    );

    await tabTo(page, view);
    await page.keyboard.press('Enter');
    const details = page.getByRole('dialog', { name: 'Consent Details' });
    await expect(details).toBeVisible();
    await expect(details).toContainText(consentId);
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();
    await expect(view).toBeFocused();

    const remove = page.getByRole('button', { name: `Delete consent ${consentId}` });
    const confirm = page.getByRole('dialog', { name: 'Delete Consent' });
    const deleteButton = confirm.getByRole('button', { name: 'Delete', exact: true });
    await tabTo(page, remove);
    await page.keyboard.press('Enter');
    await expect(confirm).toBeVisible();
    await expect(deleteButton).not.toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(remove).toBeFocused();

    await page.keyboard.press('Enter');
    await tabTo(page, confirm.getByRole('button', { name: 'Cancel' }));
    await page.keyboard.press('Enter');
    await expect(confirm).toBeHidden();
    await expect(remove).toBeFocused();

    await page.keyboard.press('Enter');
    await tabTo(page, deleteButton);
    await page.keyboard.press('Enter');
    await expect(page.getByText('Consent deleted successfully!')).toBeVisible();
    await expect(remove).toHaveCount(0);
    // its button went with the row: focus goes to the main content, not to <body>
    await expect(page.locator('#main-content')).toBeFocused();
  });

  test('works Security, Invoices, Exports and Privacy: dialogs give focus back, a switch keeps it', async ({
    page,
    customer,
  }) => {
    await signInByKeyboard(page, customer);

    await goByKeyboard(page, 'Security', 'Security');
    const setUp = page.getByRole('button', { name: 'Set up', exact: true });
    await tabTo(page, setUp);
    await page.keyboard.press('Enter');
    const authenticator = page.getByRole('dialog', { name: 'Set up an authenticator app' });
    await expect(authenticator).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(authenticator).toBeHidden();
    await expect(setUp).toBeFocused();

    await goByKeyboard(page, 'Invoices', 'Invoices');
    await expect(page.getByRole('heading', { name: 'Invoices', level: 1 })).toBeVisible();

    await goByKeyboard(page, 'Exports', 'Exports');
    const kind = page.getByLabel('What to export');
    await tabTo(page, kind);
    // a closed list box picks the option whose label is typed
    await page.keyboard.type('Activity');
    await expect(kind).toHaveValue('activity');
    await tabTo(page, page.getByRole('button', { name: 'Download' }));
    const downloading = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(
      /^activity-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    await expect(page.getByRole('status')).toHaveText(
      `Your download of ${download.suggestedFilename()} has started.`,
    );
    await expect(page.getByRole('button', { name: 'Download' })).toBeFocused();

    await goByKeyboard(page, 'Privacy', 'Privacy');
    const reminders = page.getByRole('switch', { name: /Reminders/ });
    await expect(reminders).toBeEnabled();
    const wasOn = await reminders.isChecked();
    await tabTo(page, reminders);
    await page.keyboard.press('Space');
    await expect(reminders).toBeChecked({ checked: !wasOn });
    // saved (a switch ignores presses while its change is saved), and the keyboard is still
    // where it was
    await expect(reminders).not.toHaveAttribute('aria-disabled');
    await expect(reminders).toBeEnabled();
    await expect(reminders).toBeFocused();
    await page.keyboard.press('Space');
    await expect(reminders).toBeChecked({ checked: wasOn });
    await expect(reminders).not.toHaveAttribute('aria-disabled');
    await expect(reminders).toBeEnabled();

    const changeEmail = page.getByRole('button', { name: 'Change e-mail' });
    await tabTo(page, changeEmail);
    await page.keyboard.press('Enter');
    const emailDialog = page.getByRole('dialog', { name: 'Change e-mail address' });
    await expect(emailDialog).toBeVisible();
    // focus moved into the dialog
    await expect(emailDialog.locator(':focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(emailDialog).toBeHidden();
    await expect(changeEmail).toBeFocused();
  });

  test('goes on past the notices with Tab, never back to the control before them', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    await page.goto('/privacy');
    // an error notice stays until it is dismissed, so it is still there whatever the pace
    await page.route(`**${preferencesPaths.notifications}`, (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 503, json: { success: false, message: 'Service unavailable' } })
        : route.fallback(),
    );
    const reminders = page.getByRole('switch', { name: /Reminders/ });
    await expect(reminders).toBeEnabled();
    await tabTo(page, reminders);
    await page.keyboard.press('Space');
    const notices = page.getByRole('region', { name: /^Notifications/ });
    await expect(notices.getByRole('listitem')).toHaveCount(1);
    await expect(notices.getByRole('button', { name: 'Dismiss' })).toBeVisible();

    // the page's last control, then the notice and its Dismiss button, then on to the start of
    // the page: before, leaving the notices sent focus back to Close account, for as long as a
    // notice showed
    const closeAccount = page.getByRole('button', { name: 'Close account' });
    await tabTo(page, closeAccount);
    await page.keyboard.press('Tab');
    await expect(notices.getByRole('listitem')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(notices.getByRole('button', { name: 'Dismiss' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(closeAccount).not.toBeFocused();
    await tabTo(page, page.getByRole('link', { name: 'Skip to main content' }), 2);

    // Alt+T still takes focus to the notices and, once it leaves them, back to where it was
    await tabTo(page, closeAccount);
    await page.keyboard.press('Alt+T');
    await expect(notices.locator('[data-sonner-toaster]')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(notices.getByRole('listitem')).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    // Tab took focus out of the page, which keeps Close account as its element in focus
    await expect
      .poll(() => closeAccount.evaluate((button) => button === document.activeElement))
      .toBe(true);
  });
});
