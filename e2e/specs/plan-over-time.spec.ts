import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from '../support/fixtures';

const comingUp = (page: Page) =>
  page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Coming up', exact: true }) });

const PLAN_ROW = /Your .+ plan ends/;

/**
 * Buys the Starter plan: the order screen explains it first, then the order and the payment are
 * made through the API as the form makes them (the billing confirmation is the billing part's),
 * and paid at the sandbox gateway.
 */
async function buyStarter(page: Page) {
  await page.goto('/plans');
  await page.getByRole('button', { name: 'Purchase Plan Starter' }).click();
  await page.waitForURL(/\/orders\?planId=/);
  await expect(page.getByTestId('purchase-explanation')).toContainText(
    /^Starter starts when you pay and runs until \d\d\/\d\d\/\d{4}\.$/,
  );
  const paymentUrl = await page.evaluate(async () => {
    const { token, user } = JSON.parse(localStorage.getItem('auth-storage')!).state;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const { data } = await (await fetch('/api/plans', { headers })).json();
    const starter = data.plans.find((p: { planName: string }) => p.planName === 'Starter');
    const order = await fetch('/api/orders', {
      method: 'POST',
      headers,
      body: JSON.stringify({ planId: starter._id, amount: 613.77 }),
    });
    const { order: created } = await order.json();
    const payment = await fetch('/api/create-payment', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        order_id: created._id,
        amount: 613.77,
        customer_name: user.company_name,
        customer_email: user.email,
        customer_phone: user.mobile,
        planType: starter.planType,
      }),
    });
    return (await payment.json()).paymentUrl as string;
  });
  await page.goto(paymentUrl);
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.waitForURL(/\/orders\?tab=history/);
}

const widths = [
  ['desktop', { viewport: { width: 1280, height: 900 } }],
  ['phone', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }],
] as const;

for (const [width, use] of widths) {
  test.describe(`the plan over time on a ${width}`, () => {
    test.use(use);

    test('Coming up shows an expiring consent with Reconnect, leading to the consents screen', async ({
      page,
      customer,
    }) => {
      await signIn(page, customer);
      const card = comingUp(page);
      // the seeded Approved consent that ends in 12 days
      const consent = card
        .getByRole('listitem')
        .filter({ hasText: /Consent for .+ expires/ })
        .first();
      await expect(consent).toContainText(/in 12 days, \d\d\/\d\d\/\d{4}/);
      await expect(card).toContainText(
        /\d+ (consent expires|consents expire) in the next 30 days\./,
      );
      const reconnect = consent.getByRole('link', { name: /^Reconnect/ });
      await expect(reconnect).toHaveAttribute('href', /^\/consents\?reconnect=[0-9a-f-]{36}$/);
      if (width === 'phone') {
        expect((await reconnect.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      }
      await expectAccessible(page, 'the dashboard with Coming up');
      await reconnect.click();
      await page.waitForURL(/\/consents\?reconnect=/);
    });

    test('Coming up shows the plan’s end with Renew, which leads to the order explaining the renewal', async ({
      page,
      customer,
    }) => {
      await signIn(page, customer);
      const card = comingUp(page);
      await expect(card.getByRole('list').or(card.getByText(/^Nothing ends/))).toBeVisible();
      // a customer of its own has no plan until it buys one
      await expect(card.getByText(PLAN_ROW)).toHaveCount(0);
      await buyStarter(page);
      await page.goto('/dashboard');
      const plan = card.getByRole('listitem').filter({ hasText: PLAN_ROW });
      await expect(plan).toContainText(/Your Starter plan ends/);
      await expect(plan).toContainText(/in \d+ days, \d\d\/\d\d\/\d{4}/);
      const renew = plan.getByRole('link', { name: /^Renew/ });
      if (width === 'phone') {
        expect((await renew.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      }
      await expectAccessible(page, 'Coming up with a plan');

      await renew.click();
      await page.waitForURL(/\/orders\?planId=/);
      await expect(page.getByRole('radio', { name: /Starter/ })).toBeChecked();
      // axe reads the page once the pre-selection's toast has come in
      await expect(page.getByText('Starter plan selected!')).toBeVisible();
      // before payment: the renewal starts when the plan ends, and nothing is credited
      await expect(page.getByTestId('purchase-explanation')).toContainText(
        /^Renewal: Starter runs on from \d\d\/\d\d\/\d{4}, when your current plan ends, until \d\d\/\d\d\/\d{4}\. The \d+ days? left on your current plan (is|are) kept, not credited, and the full price is charged\.$/,
      );
      await expectAccessible(page, 'the order with its renewal explained');
    });
  });
}
