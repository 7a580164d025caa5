import type { Page } from '@playwright/test';
import { confirmBillingAndPay } from '../support/billing';
import { expect, expectAccessible, signIn, test } from '../support/fixtures';

const card = (page: Page, title: string) =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

test.describe('dashboard', () => {
  test('shows the welcome, the overview, the four stat cards and the quick actions', async ({
    page,
    customer,
  }) => {
    const requests: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) requests.push(url.pathname + url.search);
    });
    await signIn(page, customer);
    await expect(
      page.getByRole('heading', { name: `Welcome back, ${customer.companyName}!` }),
    ).toBeVisible();

    const overview = card(page, 'Account Overview');
    await expect(overview).toContainText(customer.companyName);
    await expect(overview).toContainText(customer.gstNo);

    const main = page.getByRole('main');
    for (const [label, href] of [
      ['Total Consents', '/consents'],
      ['Active Consents', '/consents'],
      ['Total Orders', '/orders'],
      ['Available Plans', '/plans'],
    ] as const) {
      const link = main.getByRole('link', { name: new RegExp(`^${label}`) });
      await expect(link).toHaveAttribute('href', href);
      await expect(link).toContainText(/\d|N\/A/);
    }
    await expect(main.getByRole('link', { name: /^Total Consents/ })).toContainText(/\d+ approved/);
    await expect(main.getByRole('link', { name: /^Active Consents/ })).toContainText(/\d+ pending/);
    await expect(main.getByRole('link', { name: /^Total Orders/ })).toContainText(/\d+ completed/);
    await expect(main.getByRole('link', { name: /^Available Plans/ })).toContainText('View All');
    // the counts come from the server's counters and the activity from 2 consents: never every one
    expect(requests.some((r) => r.startsWith('/api/dashboard/counters?userId='))).toBe(true);
    expect(requests.some((r) => r.startsWith('/api/user-consents?') && r.includes('limit=2'))).toBe(
      true,
    );
    expect(requests.some((r) => r.startsWith('/api/user-consents/user/'))).toBe(false);

    await expect(card(page, 'Your Current Plan')).toBeVisible();
    await expect(
      card(page, 'Recent Orders').getByRole('link', { name: /View All/ }),
    ).toHaveAttribute('href', '/orders');
    await expect(
      card(page, 'All Recent Activity').getByRole('link', { name: /View All/ }),
    ).toHaveAttribute('href', '/activity');
    const quick = card(page, 'Quick Actions');
    await expect(quick.getByRole('link', { name: /View Consents/ })).toContainText(
      'Manage API permissions',
    );
    await expect(quick.getByRole('link', { name: /Browse Plans/ })).toContainText(
      'Explore available options',
    );
    await expect(quick.getByRole('link', { name: /Update Profile/ })).toContainText(
      'Manage account details',
    );
    await expectAccessible(page);
  });

  test('the activity screen shows the sign-in, filters by type and passes axe', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    await card(page, 'All Recent Activity')
      .getByRole('link', { name: /View All/ })
      .click();
    await page.waitForURL('**/activity');
    await expect(page.getByRole('heading', { name: 'Account Activity' })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Signed in' }).first()).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel('Type').selectOption('consent');
    await expect(page.getByRole('listitem').filter({ hasText: 'Signed in' })).toHaveCount(0);
  });

  test('after a purchase and a consent deletion: the counts follow, and the bell tells of the payment', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    const main = page.getByRole('main');
    const countOf = async (label: string) => {
      const link = main.getByRole('link', { name: new RegExp(`^${label}`) });
      await expect(link).toContainText(new RegExp(`${label}\\d`));
      return Number(
        (await link.innerText())
          .replace(/\s+/g, ' ')
          .match(/(\d[\d,]*)/)![1]!
          .replace(/,/g, ''),
      );
    };
    const orders = await countOf('Total Orders');
    const consents = await countOf('Total Consents');
    expect(consents).toBeGreaterThan(0);

    // start with nothing new: Mark all read marks what the seed wrote as seen
    const bell = page.getByRole('button', { name: /^Notifications/ });
    const list = page.getByRole('dialog', { name: 'Notifications' });
    const markAllRead = async () => {
      await bell.click();
      await expect(list).toBeVisible();
      const mark = list.getByRole('button', { name: 'Mark all read' });
      if (await mark.isVisible()) await mark.click();
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('notification-dot')).toHaveCount(0);
    };
    await markAllRead();

    // a purchase through the sandbox gateway
    await page.getByRole('link', { name: 'Plans', exact: true }).first().click();
    await page
      .getByRole('button', { name: /^Purchase Plan/ })
      .first()
      .click();
    await page.waitForURL('**/orders?planId=*');
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await confirmBillingAndPay(page);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(/\/orders\?tab=history&order=/);

    // the settled payment lights the bell on the next page load; Mark all read clears the dot
    await expect(page.getByTestId('notification-dot')).toBeVisible();
    await expect(bell).toHaveAccessibleName(/^Notifications, \d+ new$/);
    await bell.click();
    await expect(list).toBeVisible();
    const payment = list
      .getByRole('listitem')
      .filter({ hasText: /Payment/ })
      .first();
    await expect(payment).toContainText('New:');
    await expectAccessible(page);
    await list.getByRole('button', { name: 'Mark all read' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('notification-dot')).toHaveCount(0);
    await expect(bell).toHaveAccessibleName('Notifications');

    // a consent deletion
    await page.getByRole('link', { name: 'Consents', exact: true }).first().click();
    await page
      .getByRole('button', { name: /^Delete consent / })
      .first()
      .click();
    const confirm = page.getByRole('dialog', { name: 'Delete Consent' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByText('Consent deleted successfully!')).toBeVisible();

    await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
    await page.waitForURL('**/dashboard');
    await expect.poll(() => countOf('Total Orders')).toBe(orders + 1);
    await expect.poll(() => countOf('Total Consents')).toBe(consents - 1);
    await expect(main.getByRole('link', { name: /^Total Orders/ })).toContainText(
      /[1-9]\d* completed/,
    );
    await expect(card(page, 'Your Current Plan')).toContainText('Active Until');
    await expect(card(page, 'Recent Orders').getByRole('listitem').first()).toContainText(
      'Order for',
    );

    // the deletion is news too; once read, the dot stays away after a reload: the marker is
    // kept on the server
    await markAllRead();
    await page.reload();
    await expect(
      page.getByRole('heading', { name: `Welcome back, ${customer.companyName}!` }),
    ).toBeVisible();
    await expect(main.getByRole('link', { name: /^Total Orders/ })).toContainText(/\d/);
    await expect(page.getByTestId('notification-dot')).toHaveCount(0);
  });

  test('on a narrow phone nothing moves when the last sign-in arrives, even naming an unknown browser', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    // the longest name the server gives a browser, at the narrowest phone width
    await page.route('**/api/security/last-sign-in', (route) =>
      route.fulfill({
        json: {
          success: true,
          data: {
            at: new Date().toISOString(),
            browser: 'An unknown browser on an unknown system',
          },
        },
      }),
    );
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto('/dashboard');
    await expect(page.getByText(/^Last sign-in: .*unknown system\./)).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: /^Total Orders/ })).toContainText(
      /\d/,
    );
    const shifted = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) =>
            resolve(
              list
                .getEntries()
                .reduce((sum, entry) => sum + (entry as unknown as { value: number }).value, 0),
            ),
          ).observe({ type: 'layout-shift', buffered: true });
          // no entry at all is no shift: the observer is then never called
          setTimeout(() => resolve(0), 500);
        }),
    );
    expect(shifted).toBe(0);
  });
});
