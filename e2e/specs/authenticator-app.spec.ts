// The authenticator app as the second factor (issue 14, part 1): set up from the QR code's key,
// sign-in with the app's code and with a recovery code, and turning it off, at a desktop's width
// and at a phone's. Codes are computed here from the key the dialog shows, as a phone would.
import type { Locator, Page } from '@playwright/test';
import { generateSync } from 'otplib';
import {
  expect,
  expectAccessible,
  passwordStep,
  signIn,
  signOut,
  test,
  type Credentials,
} from '../support/fixtures';
import { WIDTHS } from '../support/layout';

/** The app's code `steps` time steps of 30 s from now. */
const codeOf = (secret: string, steps = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

const section = (page: Page) =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: 'Authenticator app' }) });

async function openSecurity(page: Page) {
  await page.goto('/security');
  await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
  await expect(section(page).getByRole('button', { name: /^(Set up|Turn off)$/ })).toBeVisible();
}

/** The password step; answers the two-factor modal, which asks for the app's code. */
async function appCodeStep(page: Page, customer: Credentials): Promise<Locator> {
  const modal = await passwordStep(page, customer);
  await expect(modal).toContainText('authenticator app');
  return modal;
}

for (const [width, use] of WIDTHS) {
  test.describe(`the authenticator app at a ${width}'s width`, () => {
    test.use(use);

    test('is set up from its key, signs in with its code and with a recovery code, and is turned off', async ({
      page,
      customer,
    }) => {
      await signIn(page, customer);
      await openSecurity(page);
      await expect(section(page)).toContainText('Sign-in asks for a code sent by e-mail.');

      // set-up: the QR code and its key as text; the first code and the password turn it on
      const opener = section(page).getByRole('button', { name: 'Set up' });
      await opener.click();
      const setup = page.getByRole('dialog', { name: 'Set up an authenticator app' });
      await expect(
        setup.getByRole('img', { name: 'QR code for your authenticator app' }),
      ).toBeVisible();
      const secret = await setup.getByLabel('Set-up key').inputValue();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await expectAccessible(page, 'set-up dialog');
      await setup.getByLabel('Code from the app').fill('000000');
      await setup.getByLabel('Password', { exact: true }).fill('not the password');
      await setup.getByRole('button', { name: 'Turn on' }).click();
      await expect(setup).toContainText('The password is not correct.');
      await setup.getByLabel('Password', { exact: true }).fill(customer.password);
      await setup.getByLabel('Code from the app').fill(codeOf(secret));
      await setup.getByRole('button', { name: 'Turn on' }).click();

      const saved = page.getByRole('dialog', { name: 'Save your recovery codes' });
      const items = saved.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
      await expect(items).toHaveCount(10);
      const codes = (await items.allTextContents()).map((c) => c.trim());
      await expect(saved.getByRole('button', { name: 'Download' })).toBeVisible();
      await expectAccessible(page, 'recovery codes dialog');
      await saved.getByRole('button', { name: 'Done' }).click();
      await expect(saved).toHaveCount(0);
      await expect(section(page)).toContainText('10 of 10 recovery codes left.');
      await expect(section(page).getByText('On', { exact: true })).toBeVisible();

      // sign-in asks for the app's code; the code of the step to come is new (decision 036)
      await signOut(page);
      let modal = await appCodeStep(page, customer);
      await expect(modal.getByRole('button', { name: 'Resend Code' })).toHaveCount(0);
      await expectAccessible(page, 'two-factor modal with the app');
      await modal.getByLabel('Code from your authenticator app').fill(codeOf(secret, 1));
      await modal.getByRole('button', { name: 'Verify & Login' }).click();
      await page.waitForURL('**/dashboard');

      // and with a recovery code, once
      await signOut(page);
      modal = await appCodeStep(page, customer);
      await modal.getByRole('button', { name: 'Use a recovery code' }).click();
      await expectAccessible(page, 'two-factor modal with a recovery code');
      await modal.getByLabel('Recovery code').fill(codes[0]!);
      await modal.getByRole('button', { name: 'Verify & Login' }).click();
      await page.waitForURL('**/dashboard');
      await openSecurity(page);
      await expect(section(page)).toContainText('9 of 10 recovery codes left.');

      // off: the password and a recovery code; a used one is refused
      await section(page).getByRole('button', { name: 'Turn off' }).click();
      const off = page.getByRole('dialog', { name: 'Turn off the authenticator app' });
      await expectAccessible(page, 'turn-off dialog');
      await off.getByLabel('Code from the app, or a recovery code').fill(codes[0]!);
      await off.getByLabel('Password', { exact: true }).fill(customer.password);
      await off.getByRole('button', { name: 'Turn off' }).click();
      await expect(off).toContainText('The code is not correct, or it was used already.');
      await off.getByLabel('Code from the app, or a recovery code').fill(codes[1]!);
      await off.getByRole('button', { name: 'Turn off' }).click();
      await expect(off).toHaveCount(0);
      await expect(section(page)).toContainText('Sign-in asks for a code sent by e-mail.');
      await expect(section(page).getByRole('button', { name: 'Set up' })).toBeFocused();

      // the e-mailed code again
      await signOut(page);
      await signIn(page, customer);
    });
  });
}
