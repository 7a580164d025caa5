// The dashboard's invitation to add an authenticator app (issue 35): shown to a customer whose
// codes come by e-mail, leading to the Security page, and once turned down, gone for good.
import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from '../support/fixtures';
import { WIDTHS } from '../support/layout';

const invitation = (page: Page) => page.getByRole('region', { name: 'Add an authenticator app' });

/** The dashboard, drawn, with the second factor's status answered. */
async function openDashboard(page: Page) {
  const status = page.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/security/two-factor',
  );
  await page.goto('/dashboard');
  await expect(page.getByRole('main').getByRole('link', { name: /^Total Orders/ })).toContainText(
    /\d/,
  );
  expect((await status).status()).toBe(200);
}

for (const [width, use] of WIDTHS) {
  test.describe(`the invitation to add an authenticator app on a ${width}`, () => {
    test.use(use);

    test('leads to the Security page, and once turned down is not shown again', async ({
      page,
      customer,
    }) => {
      await signIn(page, customer);
      await openDashboard(page);
      const card = invitation(page);
      await card.scrollIntoViewIfNeeded();
      await expect(card).toContainText('Your sign-in codes come by e-mail.');
      await expectAccessible(page, `the dashboard with the invitation on a ${width}`);
      const noThanks = card.getByRole('button', { name: 'No, thanks' });
      if (width === 'phone') {
        const box = (await noThanks.boundingBox())!;
        expect(box.height).toBeGreaterThanOrEqual(44);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        ).toBe(true);
      }

      await card.getByRole('link', { name: 'Set up on the Security page' }).click();
      await page.waitForURL('**/security');
      await expect(page.getByRole('heading', { name: 'Authenticator app' })).toBeVisible();

      await openDashboard(page);
      await invitation(page).getByRole('button', { name: 'No, thanks' }).click();
      await expect(invitation(page)).toHaveCount(0);
      // remembered by the server: not shown after a reload either
      await openDashboard(page);
      await expect(invitation(page)).toHaveCount(0);
    });
  });
}
