import { expect, expectAccessible, fillCredentials, mailCount, test } from '../support/fixtures';
import { expectFitsScreen } from '../support/layout';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true };

const FAILING =
  'We could not send your code. Our email service is having trouble; we keep trying, so the code may still arrive. If it has not come in a few minutes, try again with Resend Code, or contact support.';

test.describe('the code step while its mail cannot be sent', () => {
  test('tells the customer on screen, in a live region, and passes axe', async ({
    page,
    customerWithRefusedMail: customer,
  }) => {
    await page.goto('/login');
    await fillCredentials(page, customer);
    await page.getByRole('button', { name: 'Secure Login' }).click();
    const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
    // the spec's words stay as they are; the notice comes beside them
    await expect(
      dialog.getByText(
        "We've sent a verification code to your email. Please enter it below to complete your login.",
      ),
    ).toBeVisible();
    const notice = dialog.getByText(FAILING);
    await expect(notice).toBeVisible();
    await expect(notice.locator('xpath=..')).toHaveAttribute('aria-live', 'polite');
    expect(mailCount(customer.email)).toBe(0);
    // the step stays usable: the code may still come, or a new one be asked for
    await expect(dialog.getByLabel('Verification code')).toBeEditable();
    await expect(dialog.getByRole('button', { name: 'Resend Code' })).toBeVisible();
    await expectAccessible(page, 'the code step with its mail failing');
  });
});

test.describe('at a phone’s width, by keyboard', () => {
  test.use(PHONE);

  test('the notice fits the screen and leaves the focus in the code field', async ({
    page,
    customerWithRefusedMail: customer,
  }) => {
    await page.goto('/login');
    await fillCredentials(page, customer);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
    const code = dialog.getByLabel('Verification code');
    await expect(code).toBeFocused();
    await expect(dialog.getByText(FAILING)).toBeVisible();
    // a polite live region is read out without taking the focus from what is being typed
    await expect(code).toBeFocused();
    await page.keyboard.type('12');
    await expect(code).toHaveValue('12');
    await expectFitsScreen(page, 'the code step with its mail failing', { touch: true });
    await expectAccessible(page, 'the code step with its mail failing, at a phone’s width');
  });
});
