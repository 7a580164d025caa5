import type { Page, Response } from '@playwright/test';
import { confirmBillingAndPay, tabTo } from '../support/billing';
import { expect, expectAccessible, signIn, test } from '../support/fixtures';
import { expectClearOfToasts } from '../support/layout';

/** Orders the plan from the Plans screen and lands on the sandbox checkout page. */
async function orderPlan(page: Page, planName: string) {
  await page.goto('/plans');
  await page.getByRole('button', { name: `Purchase Plan ${planName}` }).click();
  await expect(page.getByText(`Redirecting to order ${planName} plan...`)).toBeVisible();
  await page.waitForURL(/\/orders\?planId=/);
  await expect(page.getByText(`${planName} plan selected!`)).toBeVisible();
  await expect(page.getByText('Plan pre-selected from Plans page')).toBeVisible();
  await expect(page.getByRole('radio', { name: new RegExp(planName) })).toBeChecked();
  // the two notices of the choice stay above the button, where the pointer goes to press it
  const proceed = page.getByRole('button', { name: 'Proceed to Payment' });
  await expectClearOfToasts(page, proceed, 'orders with a plan chosen');
  await proceed.click();
  await confirmBillingAndPay(page);
  await page.waitForURL(/\/sandbox\/razorpay\/checkout\/plink_/);
}

/**
 * Places `count` Starter orders through the API as the order form would, so the history has a
 * second page; answers how many orders the customer has in all.
 */
async function placeOrders(page: Page, count: number): Promise<number> {
  await page.goto('/plans');
  await expect(page.getByRole('heading', { name: 'Starter' })).toBeVisible();
  return page.evaluate(async (count) => {
    const { token } = JSON.parse(localStorage.getItem('auth-storage')!).state;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const { data } = await (await fetch('/api/plans', { headers })).json();
    const starter = data.plans.find((p: { planName: string }) => p.planName === 'Starter');
    for (let i = 0; i < count; i++) {
      const res = await fetch('/api/orders', {
        method: 'POST',
        headers,
        body: JSON.stringify({ planId: starter._id, amount: 613.77 }),
      });
      if (res.status !== 201) throw new Error(`order ${i}: ${res.status}`);
    }
    let total = 0;
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const body = await (await fetch(`/api/orders/history?limit=100${query}`, { headers })).json();
      total += body.orders.length;
      cursor = body.nextCursor;
    } while (cursor);
    return total;
  }, count);
}

test.describe('buying a plan', () => {
  test('pays on the sandbox gateway, sees Completed and opens the receipt PDF', async ({
    page,
    context,
    customer,
  }) => {
    await signIn(page, customer);
    // a customer of its own has no plan yet: the one bought becomes the current plan
    await page.goto('/profile');
    const planBefore = page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'Current Plan' }) });
    await expect(planBefore.getByText('No active plan found.')).toBeVisible();
    const currentPlanAfter = 'Professional';

    await page.goto('/plans');
    await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Professional' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Table View' }).click();
    await expect(page.getByRole('columnheader', { name: 'Plan Details' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Card View' }).click();

    await page.getByRole('button', { name: 'Purchase Plan Professional' }).click();
    await page.waitForURL(/\/orders\?planId=/);
    await expect(page.getByText('Professional plan selected!')).toBeVisible();
    await expect(page.getByText('Plan pre-selected from Plans page')).toBeVisible();
    await expect(page.getByLabel('Company Name')).toHaveValue('Acme Traders Pvt Ltd');
    await expect(page.getByLabel('Amount')).toHaveValue('₹6,148.77');
    await expect(page.getByText('GST 18%', { exact: true })).toBeVisible();
    await expect(page.getByText('Internet Handling Charges 5%', { exact: true })).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await confirmBillingAndPay(page);
    await page.waitForURL(/\/sandbox\/razorpay\/checkout\/plink_/);
    await expect(page.getByText('Ledgerline Software Services Pvt Ltd')).toBeVisible();
    await expect(page.getByText('₹6,148.77').first()).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(/\/orders\?tab=history/);
    const row = page.getByRole('row').filter({ hasText: 'Professional' }).first();
    await expect(row).toContainText('Completed');
    await expect(row).toContainText('₹6,148.77');
    await expectAccessible(page);

    const responses: Response[] = [];
    context.on('response', (response) => {
      if (response.url().includes('/receipt?')) responses.push(response);
    });
    const opened = context.waitForEvent('page');
    await row.getByRole('button', { name: /Receipt/ }).click();
    await expect(page.getByText('Downloading receipt...')).toBeVisible();
    await opened;
    await expect.poll(() => responses.length).toBeGreaterThan(0);
    expect(responses[0]!.status()).toBe(200);
    expect(responses[0]!.headers()['content-type']).toBe('application/pdf');

    // the purchased plan is now the current plan on the profile and the dashboard
    await page.goto('/profile');
    await expect(planBefore.getByText(currentPlanAfter, { exact: true })).toBeVisible();
    await page.goto('/dashboard');
    await expect(page.getByText(currentPlanAfter, { exact: true }).first()).toBeVisible();
    await expect(page.getByText('No active plan found.')).toHaveCount(0);
  });

  test('a failed payment shows Failed without a receipt', async ({ page, customer }) => {
    await signIn(page, customer);
    await orderPlan(page, 'Starter');
    await page.getByRole('button', { name: 'Fail payment' }).click();
    await page.waitForURL(/\/orders\?tab=history/);
    const row = page.getByRole('row').filter({ hasText: 'Starter' }).first();
    await expect(row).toContainText('Failed');
    // the button is aria-disabled, not disabled: it stays reachable and explains itself
    const receipt = row.getByRole('button', { name: /Receipt/ });
    await expect(receipt).toHaveAttribute('aria-disabled', 'true');
    await receipt.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Receipt not available for this order.')).toBeVisible();
  });

  test('a long history shows the newest 10 orders and loads the rest on demand, by keyboard', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    const total = await placeOrders(page, 11);
    expect(total).toBeGreaterThanOrEqual(11);

    await page.goto('/orders?tab=history');
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(10);
    const loadMore = page.getByRole('button', { name: 'Load more orders' });
    await expectAccessible(page, 'history with more to load');
    while (await loadMore.isVisible()) {
      const before = await rows.count();
      await tabTo(page, loadMore);
      await page.keyboard.press('Enter');
      await expect(rows).not.toHaveCount(before);
      // reading goes on from the first order added
      await expect(rows.nth(before).locator('[data-order-id]')).toBeFocused();
    }
    await expect(rows).toHaveCount(total);
    await expect(page.getByRole('status').filter({ hasText: 'All orders are shown.' })).toHaveText(
      /^\d+ more orders? loaded\. All orders are shown\.$/,
    );
    const ids = await page
      .locator('[data-order-id]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-order-id')));
    expect(new Set(ids).size).toBe(total);
    await expectAccessible(page, 'history fully loaded');
  });

  test('the create tab without a chosen plan passes the accessibility check', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    await page.goto('/orders');
    await expect(page.getByRole('tab', { name: 'Create Order' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeDisabled();
    await expectAccessible(page);
  });
});

test.describe('a long order history on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('loads more with a full-width 44 px button, without sideways scroll', async ({
    page,
    customer,
  }) => {
    await signIn(page, customer);
    await placeOrders(page, 11);
    await page.goto('/orders?tab=history');
    const cards = page.locator('tbody tr');
    await expect(cards).toHaveCount(10);
    const loadMore = page.getByRole('button', { name: 'Load more orders' });
    const box = (await loadMore.boundingBox())!;
    const card = (await cards.first().boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(card.width - 1);
    await loadMore.tap();
    await expect(cards).not.toHaveCount(10);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await expectAccessible(page, 'order history on a phone');
  });
});
