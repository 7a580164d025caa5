import type { Locator, Page } from '@playwright/test';
import { confirmBillingAndPay } from '../support/billing';
import { expect, expectAccessible, signIn, test } from '../support/fixtures';

const DATE = /\d{2}\/\d{2}\/\d{4}/;

const planCard = (page: Page, planName: string) =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: planName }) });

/** Orders the plan from the Plans screen and lands on the sandbox checkout page. */
async function orderPlan(page: Page, planName: string) {
  await page.goto('/plans');
  await page.getByRole('button', { name: `Purchase Plan ${planName}` }).click();
  await page.waitForURL(/\/orders\?planId=/);
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await confirmBillingAndPay(page);
  await page.waitForURL(/\/sandbox\/razorpay\/checkout\/plink_/);
}

/** The banner of the payment result the customer lands on. */
async function resultBanner(page: Page, title: string): Promise<Locator> {
  await page.waitForURL(/\/orders\?tab=history&order=[0-9a-f-]{36}$/);
  const banner = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: title }) });
  await expect(banner).toBeVisible();
  return banner;
}

const dateIn = async (locator: Locator) => (await locator.textContent())?.match(DATE)?.[0];

test.describe('the result of a payment', () => {
  test('pays, sees the plan end and invoice, pays again and sees the extension everywhere', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);

    // what buying Starter now would do, as the Plans screen promises it
    await page.goto('/plans');
    // the plans and the customer's plan arrive in one answer
    await expect(page.getByRole('heading', { name: 'Starter' })).toBeVisible();
    const promise = planCard(page, 'Starter').getByText(/Extends your plan to|Starts /);
    const hadPlan = (await promise.count()) > 0;

    await orderPlan(page, 'Starter');
    await expect(page.getByText(/Starter plan, order #[0-9A-F]{6}/)).toBeVisible();
    await page.getByRole('button', { name: /^Pay / }).click();
    const paid = await resultBanner(page, 'Payment successful');
    await expect(paid).toContainText(hadPlan ? /extended to/ : /Starter is active until/);
    await expect(paid).toContainText(
      /Order #[0-9A-F]{6} · ₹613\.77 · Invoice INV\/\d{2}-\d{2}\/\d{6}/,
    );
    await expect(paid.getByRole('button', { name: /^Receipt for order #/ })).toBeVisible();
    const marked = page.getByRole('row').filter({ hasText: 'This payment' });
    await expect(marked).toContainText('Completed');
    await expect(marked).toContainText(/Invoice INV\//);
    await expectAccessible(page, 'payment successful');

    // buying it again extends the plan from its end; the Plans screen says so first
    await page.goto('/plans');
    const starter = planCard(page, 'Starter');
    const extendsTo = starter.getByText(/^Extends your plan to /);
    await expect(starter.getByText(/^Extends your plan to |^Starts /)).toBeVisible();
    if ((await extendsTo.count()) === 0) {
      // another plan is in force: Starter is queued after it
      await expect(starter.getByText(/^Starts .*, when your current plan ends$/)).toBeVisible();
    } else {
      await expect(starter.getByText('Current plan')).toBeVisible();
      await expect(starter.getByText(/days? left, until/)).toBeVisible();
    }
    const promised = (await extendsTo.count()) > 0 ? await dateIn(extendsTo) : undefined;
    await expectAccessible(page, 'plans with a current plan');

    await orderPlan(page, 'Starter');
    await page.getByRole('button', { name: /^Pay / }).click();
    const renewed = await resultBanner(page, 'Payment successful');
    await expect(renewed).toContainText('Your plan is extended to');
    const newEnd = await dateIn(renewed.getByText(/extended to/));
    expect(newEnd).toMatch(DATE);
    // the end the Plans screen promised is the end the payment gave
    if (promised) expect(newEnd).toBe(promised);

    await page.goto('/dashboard');
    const plan = page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'Your Current Plan' }) });
    await expect(plan.locator('dt:text-is("Active Until") + dd')).toHaveText(newEnd!);
    await expect(plan.getByText(`Extended to ${newEnd}`, { exact: false })).toBeVisible();
    await expectAccessible(page, 'dashboard extended');

    await page.goto('/profile');
    const current = page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'Current Plan' }) });
    await expect(current.locator('dt:text-is("End Date") + dd')).toHaveText(newEnd!);
    await expect(current.getByText(`Extended to ${newEnd}`, { exact: false })).toBeVisible();
  });

  test('a failed payment says so and offers Retry, which confirms the billing details and goes back to the gateway', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    await orderPlan(page, 'Starter');
    await page.getByRole('button', { name: 'Fail payment' }).click();
    const failed = await resultBanner(page, 'Payment failed');
    await expect(failed).toContainText(/The payment for order #[0-9A-F]{6} \(Starter, ₹613\.77\)/);
    await expect(page.getByRole('row').filter({ hasText: 'This payment' })).toContainText('Failed');
    await expectAccessible(page, 'payment failed');
    await failed.getByRole('button', { name: /^Retry payment for order #/ }).click();
    // the new order keeps the billing details: they are confirmed again, as for a first order
    await confirmBillingAndPay(page);
    await page.waitForURL(/\/sandbox\/razorpay\/checkout\/plink_/);
    await page.getByRole('button', { name: /^Pay / }).click();
    await resultBanner(page, 'Payment successful');
  });
});

test.describe('the result of a payment on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('shows the failure and Retry as full-width 44 px targets without sideways scroll', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    await orderPlan(page, 'Starter');
    await page.getByRole('button', { name: 'Fail payment' }).click();
    const failed = await resultBanner(page, 'Payment failed');
    const retry = failed.getByRole('button', { name: /^Retry payment for order #/ });
    const box = (await retry.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await expectAccessible(page, 'payment failed on a phone');
  });
});
