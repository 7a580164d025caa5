// The security centre (issue 14, part 1): signed-in sessions, sign-in history, the last sign-in
// on the dashboard and the new-browser notice's link, at a desktop's width and at a phone's.
import type { Browser, Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  fillCredentials,
  mailCount,
  signIn,
  test,
  waitForMailMatching,
  type Credentials,
} from '../support/fixtures';
import { WIDTHS } from '../support/layout';

/** Another browser (a context of its own: no cookies, no device id) signed in as `customer`. */
async function signInElsewhere(browser: Browser, customer: Credentials) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, customer);
  return page;
}

/** A browser whose session was ended is sent to the sign-in screen at its next request. */
async function expectSignedOut(page: Page) {
  await page.goto('/profile');
  await page.waitForURL('**/login');
}

const sessionsCard = (page: Page) =>
  page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Signed-in sessions' }) });

async function openSecurity(page: Page) {
  await page.goto('/security');
  await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Security · Customer Portal');
  await expect(sessionsCard(page).getByText('This device')).toBeVisible();
}

for (const [width, use] of WIDTHS) {
  test.describe(`the security centre at a ${width}'s width`, () => {
    test.use(use);

    test('lists the sessions with this device marked, and signs out all others after a confirmation', async ({
      page,
      browser,
      customer,
    }) => {
      const other = await signInElsewhere(browser, customer);
      await signIn(page, customer);
      await openSecurity(page);
      const card = sessionsCard(page);
      await expect(card.getByText('This device')).toHaveCount(1);
      expect(await card.getByRole('button', { name: /^Sign out / }).count()).toBeGreaterThan(0);
      await expect(card).toContainText('Chrome on Linux');
      await expect(card).toContainText(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/);
      await expectAccessible(page, 'security page');

      const history = page
        .locator('section')
        .filter({ has: page.getByRole('heading', { name: 'Sign-in history' }) });
      await expect(history.getByRole('listitem').first()).toContainText('Signed in');

      // nothing happens until the dialog is confirmed; Cancel keeps every session
      await card.getByRole('button', { name: 'Sign out all other sessions' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign out all other sessions?' });
      await expect(dialog).toBeVisible();
      await expectAccessible(page, 'sign out all others dialog');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(card.getByRole('button', { name: 'Sign out all other sessions' })).toBeFocused();
      await other.goto('/profile');
      await expect(other.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();

      await card.getByRole('button', { name: 'Sign out all other sessions' }).click();
      await dialog.getByRole('button', { name: 'Sign out all others' }).click();
      await expect(page.getByText('All other sessions are signed out.')).toBeVisible();
      await expect(card.getByRole('button', { name: /^Sign out / })).toHaveCount(0);
      await expect(card).toContainText('Your account is signed in on this device only.');
      await expectSignedOut(other);
      await other.context().close();
    });

    test('signs out one session, which is refused at once', async ({ page, browser, customer }) => {
      await signIn(page, customer);
      // a session older than the one signed out, which stays: with it, so does Sign out all
      const kept = await signInElsewhere(browser, customer);
      const other = await signInElsewhere(browser, customer);
      await openSecurity(page);
      const card = sessionsCard(page);
      // the newest session other than this one is the first row that offers Sign out
      const before = await card.getByRole('button', { name: /^Sign out / }).count();
      await card
        .getByRole('button', { name: /^Sign out Chrome on Linux$/ })
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name: 'Sign out this session?' });
      await expectAccessible(page, 'sign out one session dialog');
      await dialog.getByRole('button', { name: 'Sign out', exact: true }).click();
      await expect(page.getByText('The session is signed out.')).toBeVisible();
      await expect(card.getByRole('button', { name: /^Sign out / })).toHaveCount(before - 1);
      await expectSignedOut(other);
      await other.context().close();
      await kept.context().close();
    });

    test('shows the last sign-in on the dashboard and a failed attempt in the history', async ({
      page,
      browser,
      customer,
    }) => {
      // the sign-in before, in another browser: the dashboard names it
      const earlier = await signInElsewhere(browser, customer);
      await earlier.context().close();
      await page.goto('/login');
      await fillCredentials(page, customer, 'Wrong@12345');
      await page.getByRole('button', { name: 'Secure Login' }).click();
      await expect(
        page.getByText('Invalid login details. Please check and try again.'),
      ).toBeVisible();

      await signIn(page, customer);
      await expect(
        page.getByText(/^Last sign-in: \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}, Chrome on Linux\./),
      ).toBeVisible();
      await page.getByRole('link', { name: 'Review security' }).click();
      await page.waitForURL('**/security');
      const history = page
        .locator('section')
        .filter({ has: page.getByRole('heading', { name: 'Sign-in history' }) });
      await expect(history.getByRole('listitem').nth(0)).toContainText('Signed in');
      await expect(history.getByRole('listitem').nth(1)).toContainText('Wrong password');
      await expectAccessible(page, 'security page with a failed attempt');
    });

    test('ends a new browser’s session from the link of its notice', async ({
      page,
      browser,
      customer,
    }) => {
      await signIn(page, customer);
      const before = mailCount(customer.email);
      const stranger = await signInElsewhere(browser, customer);
      // the notice, found by its link: a consent reminder may come to the same address beside it
      const [mail, found] = await waitForMailMatching(
        customer.email,
        before,
        /^[\s\S]*?(http\S+\/end-session#token=[A-Za-z0-9_-]{43})[\s\S]*$/,
      );
      expect(mail).toContain('Browser: Chrome on Linux');
      const link = found!;

      // read on another device, where nobody is signed in
      const reader = await browser.newContext();
      const readerPage = await reader.newPage();
      await readerPage.goto(link);
      await expect(readerPage).toHaveTitle('End a Session · Customer Portal');
      await expectAccessible(readerPage, 'end-session page');
      await readerPage.getByRole('button', { name: 'End that session' }).click();
      await expect(readerPage.getByRole('status')).toContainText(
        'The session is signed out. (Chrome on Linux)',
      );
      await expectAccessible(readerPage, 'end-session page after ending');
      await expectSignedOut(stranger);

      // the link works once
      await readerPage.goto('/login');
      await readerPage.goto(link);
      await readerPage.getByRole('button', { name: 'End that session' }).click();
      await expect(readerPage.getByRole('alert')).toContainText(
        'This link is invalid, has expired or was already used.',
      );
      await reader.close();
      await stranger.context().close();
    });
  });
}
