// Passkeys (decision 080): added on the Security page, used as the second step of sign-in, renamed
// and removed, at a desktop's width and at a phone's. Chromium's virtual authenticator (the
// DevTools WebAuthn domain) stands in for the fingerprint reader: it makes real ES256 keys and
// signs real assertions, which the server checks as it would a phone's.
import type { CDPSession, Page } from '@playwright/test';
import { expect, expectAccessible, passwordStep, signIn, signOut, test } from '../support/fixtures';
import { WIDTHS } from '../support/layout';

const card = (page: Page) => page.getByRole('region', { name: 'Passkeys' });

/** A platform authenticator that verifies the user at once, as a fingerprint reader does. */
async function virtualAuthenticator(page: Page) {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

async function openSecurity(page: Page) {
  await page.goto('/security');
  await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
  await expect(card(page).getByRole('button', { name: 'Add a passkey' })).toBeVisible();
}

for (const [width, use] of WIDTHS) {
  test.describe(`passkeys at a ${width}'s width`, () => {
    test.use(use);

    test('are added, sign in in place of the code, are renamed and removed', async ({
      page,
      customer,
    }) => {
      const device = await virtualAuthenticator(page);
      await signIn(page, customer);
      await openSecurity(page);
      await expect(card(page)).toContainText('No passkeys yet.');
      await expectAccessible(page, 'passkeys card, empty');

      // added after the password; the first comes with the recovery codes
      await card(page).getByRole('button', { name: 'Add a passkey' }).click();
      const add = page.getByRole('dialog', { name: 'Add a passkey' });
      await add.getByLabel('Passkey name').fill('Work laptop');
      await add.getByLabel('Password', { exact: true }).fill('not the password');
      await add.getByRole('button', { name: 'Create passkey' }).click();
      await expect(add).toContainText('The password is not correct.');
      await expectAccessible(page, 'add-passkey dialog');
      await add.getByLabel('Password', { exact: true }).fill(customer.password);
      await add.getByRole('button', { name: 'Create passkey' }).click();
      const saved = page.getByRole('dialog', { name: 'Save your recovery codes' });
      await expect(
        saved.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem'),
      ).toHaveCount(10);
      await saved.getByRole('button', { name: 'Done' }).click();
      const list = card(page).getByRole('list', { name: 'Your passkeys' });
      await expect(list).toContainText('Work laptop');
      await expect(list).toContainText('Never used');
      expect(await device.credentials()).toHaveLength(1);
      await expectAccessible(page, 'passkeys card with one');

      // renamed
      await card(page).getByRole('button', { name: 'Rename Work laptop' }).click();
      const rename = page.getByRole('dialog', { name: 'Rename passkey' });
      await expectAccessible(page, 'rename-passkey dialog');
      await rename.getByLabel('Passkey name').fill('Office laptop');
      await rename.getByRole('button', { name: 'Save' }).click();
      await expect(rename).toHaveCount(0);
      await expect(list).toContainText('Office laptop');

      // sign-in asks for the passkey, by keyboard: its button has the focus as the modal opens
      await signOut(page);
      const modal = await passwordStep(page, customer);
      const usePasskey = modal.getByRole('button', { name: 'Use your passkey' });
      await expect(usePasskey).toBeFocused();
      await expect(modal.getByRole('button', { name: 'Resend Code' })).toHaveCount(0);
      await expectAccessible(page, 'two-factor modal with a passkey');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/dashboard');

      // used once: the card says when; removed after the password
      await openSecurity(page);
      await expect(list).not.toContainText('Never used');
      await card(page).getByRole('button', { name: 'Remove Office laptop' }).click();
      const remove = page.getByRole('dialog', { name: 'Remove this passkey?' });
      await expect(remove).toContainText('sign-in codes will come by e-mail again');
      await expectAccessible(page, 'remove-passkey dialog');
      await remove.getByLabel('Password', { exact: true }).fill(customer.password);
      await remove.getByRole('button', { name: 'Remove' }).click();
      await expect(remove).toHaveCount(0);
      await expect(card(page)).toContainText('No passkeys yet.');

      // the e-mailed code again
      await signOut(page);
      await signIn(page, customer);
    });
  });
}
