// The Privacy page (issue 14, part 6): notification switches, a new e-mail address confirmed by
// a code sent to it, and closing the account, at a desktop's width and at a phone's. Closing is
// driven up to the server's refusal of a wrong code (the closing itself is tested in the API's
// and the screen's own tests).
import type { Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  mailCount,
  signIn,
  test,
  waitForCode,
  waitForMailMatching,
  type Credentials,
} from '../support/fixtures';
import { WIDTHS, expectFitsScreen } from '../support/layout';

async function openPrivacy(page: Page) {
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { name: 'Privacy', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Privacy · Customer Portal');
  await expect(page.getByRole('switch', { name: /Reminders/ })).toBeVisible();
}

/** Changes the signed-in customer's address to `to`, by the code mailed to `to`. */
async function changeEmail(page: Page, customer: Credentials, to: string, checkAccessible = false) {
  await page.getByRole('button', { name: 'Change e-mail' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change e-mail address' });
  await expect(dialog).toBeVisible();
  if (checkAccessible) await expectAccessible(page, 'change e-mail dialog');
  await dialog.getByLabel('New e-mail address').fill(to);
  await dialog.getByLabel('Password', { exact: true }).fill(customer.password);
  const before = mailCount(to);
  await dialog.getByRole('button', { name: 'Send code' }).click();
  await expect(dialog.getByText(`Enter the 6-digit code we sent to ${to}.`)).toBeVisible();
  if (checkAccessible) await expectAccessible(page, 'change e-mail dialog, code step');
  await dialog.getByLabel('Code').fill(await waitForCode(to, before));
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Your e-mail address was changed.')).toBeVisible();
}

for (const [width, use] of WIDTHS) {
  test.describe(`the Privacy page at a ${width}'s width`, () => {
    test.use(use);

    test('is reached from the menu, and keeps a notification switch across a reload', async ({
      page,
      customer,
    }) => {
      await signIn(page, customer);
      if (width === 'phone') await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('link', { name: 'Privacy' }).click();
      await openPrivacy(page);
      await expectAccessible(page, 'privacy page');

      const reminders = page.getByRole('switch', { name: /Reminders/ });
      const wasOn = await reminders.isChecked();
      await reminders.click();
      await expect(page.getByText('Notification preferences saved')).toBeVisible();
      await page.reload();
      // a locator finds the switch again after the reload
      await expect(reminders).toBeChecked({ checked: !wasOn });
      // and back
      await reminders.click();
      await expect(reminders).toBeChecked({ checked: wasOn });
      // the switch shows a change at once: saved when it takes presses again
      await expect(reminders).not.toHaveAttribute('aria-disabled');
    });

    test('names a nominee, who is told by mail, and removes them after a confirmation', async ({
      page,
      customer,
    }) => {
      await signIn(page, customer);
      await openPrivacy(page);
      const nominee = `nominee-${width}-${customer.email}`;
      const section = page.getByRole('region', { name: 'Nominee' });
      await expect(section).toContainText('You have not named a nominee.');
      await section.getByRole('button', { name: 'Name a nominee' }).click();
      const dialog = page.getByRole('dialog', { name: 'Name a nominee' });
      await dialog.getByLabel('Name').fill('Asha Rao');
      await dialog.getByLabel('E-mail address').fill(nominee);
      await dialog.getByLabel('Who they are to you').selectOption('Spouse');
      await expectAccessible(page, `the nominee dialog on a ${width}`);
      if (width === 'phone') {
        await expectFitsScreen(page, 'the nominee dialog', { touch: true });
      }
      const before = mailCount(nominee);
      await dialog.getByRole('button', { name: 'Save nominee' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(section).toContainText('Asha Rao, your spouse');
      await waitForMailMatching(nominee, before, /named you, as their spouse/);

      await section.getByRole('button', { name: 'Remove nominee' }).click();
      const confirm = page.getByRole('dialog', { name: 'Remove your nominee?' });
      await expectAccessible(page, `the remove-nominee dialog on a ${width}`);
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await expect(section).toContainText('You have not named a nominee.');
      await waitForMailMatching(nominee, before + 1, /no longer names you/);
    });

    test('shows the notice on the dashboard until read, then dated here, where optional consent is withdrawn in one step', async ({
      page,
      customer,
    }) => {
      await signIn(page, customer);
      const card = page.getByRole('region', { name: 'How we use your data' });
      await expect(card).toBeVisible();
      await card.getByText('Read the full notice').click();
      await expect(card.getByRole('heading', { name: 'What is optional' })).toBeVisible();
      await expectAccessible(page, `the dashboard with the privacy notice on a ${width}`);
      // by keyboard
      await card.getByRole('button', { name: 'I have read it' }).focus();
      await page.keyboard.press('Enter');
      await expect(card).toHaveCount(0);
      // read once, in any browser: not shown again
      const answered = page.waitForResponse((res) => res.url().endsWith('/api/privacy/notice'));
      await page.reload();
      await answered;
      await expect(
        page.getByRole('heading', { name: `Welcome back, ${customer.companyName}!` }),
      ).toBeVisible();
      await expect(card).toHaveCount(0);

      await openPrivacy(page);
      const notice = page.getByRole('region', { name: 'Privacy notice' });
      await expect(notice).toContainText(/You read this notice on \d{2}\/\d{2}\/\d{4}\./);
      await expect(page.getByRole('switch', { name: /Reminders/ })).toBeChecked();
      await notice.getByRole('button', { name: 'Withdraw optional consent' }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByText(/^Consent withdrawn:/)).toBeVisible();
      await expect(page.getByRole('switch', { name: /Reminders/ })).not.toBeChecked();
      await expect(page.getByRole('switch', { name: /Consent changes/ })).not.toBeChecked();
      await expectAccessible(page, `the Privacy page after withdrawing on a ${width}`);
      if (width === 'phone') {
        await expectFitsScreen(page, 'the privacy notice', { touch: true });
      }
    });

    test('asks by keyboard to correct the company name, acknowledged with a reference and mailed', async ({
      page,
      customer,
    }) => {
      await signIn(page, customer);
      await openPrivacy(page);
      const section = page.getByRole('region', { name: 'Correct your details' });
      const detail = section.getByLabel('Detail to correct');
      await detail.selectOption('Company name');
      await detail.focus();
      await page.keyboard.press('Tab');
      await expect(section.getByLabel('Correct value')).toBeFocused();
      await page.keyboard.type('Acme Traders LLP');
      await page.keyboard.press('Tab');
      await expect(section.getByLabel('Why (optional)')).toBeFocused();
      await page.keyboard.type('We became an LLP in October.');
      await page.keyboard.press('Tab');
      const ask = section.getByRole('button', { name: 'Ask for the correction' });
      await expect(ask).toBeFocused();
      const before = mailCount(customer.email);
      await page.keyboard.press('Enter');
      const recorded = section.getByRole('status');
      await expect(recorded).toContainText(
        /Recorded as COR-[0-9A-Z]{8}\. We will decide it by \d{2}\/\d{2}\/\d{4} and e-mail you/,
      );
      const reference = /COR-[0-9A-Z]{8}/.exec((await recorded.textContent())!)![0];
      const list = section.getByRole('list', { name: 'Your correction requests' });
      await expect(list).toContainText(reference);
      await expect(list).toContainText('Waiting');
      await expectAccessible(page, `the corrections section with one waiting on a ${width}`);
      if (width === 'phone') {
        await expectFitsScreen(page, 'the corrections section', { touch: true });
      }
      await waitForMailMatching(customer.email, before, new RegExp(`Reference: ${reference}`));
    });
  });
}

test.describe('grievances', () => {
  test('names the officer, acknowledges a grievance with its reference and due date, and mails it', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    await openPrivacy(page);
    const section = page.getByRole('region', { name: 'Grievances' });
    await expect(section).toContainText(
      /Our grievance officer is .+\. Each grievance is answered within \d+ days\./,
    );
    await section.getByLabel('What is it about').selectOption('My personal data is wrong');
    await section
      .getByLabel('What happened')
      .fill('My company name is spelt wrong on my invoices.');
    const before = mailCount(customer.email);
    await section.getByRole('button', { name: 'Send to the grievance officer' }).click();
    const recorded = section.getByRole('status');
    await expect(recorded).toContainText(
      /Recorded as GRV-[0-9A-Z]{8}\. The answer is due by \d{2}\/\d{2}\/\d{4}/,
    );
    const reference = /GRV-[0-9A-Z]{8}/.exec((await recorded.textContent())!)![0];
    await expect(section.getByRole('list', { name: 'Your grievances' })).toContainText(reference);
    await expectAccessible(page, 'the grievances section with one recorded');
    await waitForMailMatching(customer.email, before, new RegExp(`Reference: ${reference}`));
  });
});

test.describe('the e-mail address', () => {
  test('changes by a code sent to the new address, shows it at once everywhere, and refuses the same address again', async ({
    page,
    customer,
  }) => {
    const newAddress = `accounts-${Date.now()}@acme.example`;
    await signIn(page, customer);
    await openPrivacy(page);
    await changeEmail(page, customer, newAddress, true);
    await expect(page.getByRole('main').getByText(newAddress)).toBeVisible();
    await expect(page.getByRole('complementary').getByText(newAddress)).toBeVisible();
    await page.goto('/profile');
    await expect(page.getByRole('main').getByText(newAddress).first()).toBeVisible();

    // an address already in use by this account is refused in the dialog, nothing changes
    await openPrivacy(page);
    await page.getByRole('button', { name: 'Change e-mail' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change e-mail address' });
    await dialog.getByLabel('New e-mail address').fill(newAddress);
    await dialog.getByLabel('Password', { exact: true }).fill(customer.password);
    await dialog.getByRole('button', { name: 'Send code' }).click();
    await expect(dialog.getByText('This is already your e-mail address.')).toBeVisible();
    await expect(dialog.getByLabel('New e-mail address')).toHaveValue(newAddress);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // and back to the first address
    await changeEmail(page, customer, customer.email);
    await expect(page.getByRole('main').getByText(customer.email)).toBeVisible();
  });
});

test.describe('Download my data', () => {
  test('is asked for on the page, prepared in the background, and its mailed link downloads the ZIP', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    await openPrivacy(page);
    const section = page.getByRole('region', { name: 'Download my data' });
    const ask = section.getByRole('button', { name: 'Ask for my data' });
    const before = mailCount(customer.email);
    await ask.click();
    await expect(
      page.getByText(
        'We are preparing your data. We will e-mail you a link to download it, valid for 24 hours.',
      ),
    ).toBeVisible();
    await expect(section.getByRole('status')).toContainText('We are preparing your data (asked');
    await expect(ask).toBeDisabled();
    await expectAccessible(page, 'privacy page, data being prepared');

    // the server's job prepares it; the page looks again by itself
    await expect(section.getByRole('status')).toContainText('Your data is ready.', {
      timeout: 30_000,
    });
    const [, link] = await waitForMailMatching(
      customer.email,
      before,
      /Download it: (http\S+\/api\/privacy\/data-export\/[0-9a-f-]+\/download\?\S+)/,
    );
    const url = new URL(link!);
    // the link works without the session: it is opened from the mail
    const download = await page.request.get(url.pathname + url.search, {
      headers: { authorization: '' },
    });
    expect(download.status()).toBe(200);
    expect(download.headers()['content-type']).toBe('application/zip');
    expect(download.headers()['content-disposition']).toMatch(/filename="portal-data-[\d-]+\.zip"/);
    const zip = await download.body();
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    // a ZIP's directory names its files in plain text
    for (const name of ['README.txt', 'account.json', 'orders.json', 'consents.json']) {
      expect(zip.includes(name), name).toBe(true);
    }
    // asked again straight away: refused, and the page says why
    await expect(ask).toBeEnabled();
    await ask.click();
    await expect(
      page.getByText(
        'Your data was prepared less than an hour ago. Use the link in that e-mail, or ask again later.',
      ),
    ).toBeVisible();

    // at a phone's width the section keeps its state and its answer on the screen
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(section.getByRole('status')).toContainText('Your data is ready.');
    await expectFitsScreen(page, 'privacy page at a phone width, data ready', { touch: false });
    await expectAccessible(page, 'privacy page at a phone width, data ready');
  });
});

test.describe('closing the account', () => {
  test.use(WIDTHS[1][1]);

  test('asks the password and a mailed code, and a wrong code closes nothing', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    await openPrivacy(page);
    await page.getByRole('button', { name: 'Close account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close your account' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'close account dialog');
    await expect(dialog.getByRole('button', { name: 'Close account' })).toBeDisabled();

    const before = mailCount(customer.email);
    await dialog.getByRole('button', { name: 'Send code' }).click();
    const code = await waitForCode(customer.email, before);
    await dialog.getByLabel('Password', { exact: true }).fill(customer.password);
    const wrong = code === '000000' ? '111111' : '000000';
    await dialog.getByLabel('Code from the e-mail').fill(wrong);
    await dialog.getByRole('button', { name: 'Close account' }).click();
    await expect(
      dialog.getByText('The code is not correct, or it has expired. Ask for a new code.'),
    ).toBeVisible();
    await expectAccessible(page, 'close account dialog with an error');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);

    // still signed in, with every screen there
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: /Welcome back/ })).toBeVisible();
  });
});
