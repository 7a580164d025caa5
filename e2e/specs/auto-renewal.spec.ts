// Auto-renewal (decision 084), walked end to end at a desktop's width and a phone's: turned on
// from the Plans screen and authorised with UPI Autopay on the sandbox gateway's hosted page, a
// failed automatic payment on the dashboard and in the bell, a successful one in Orders and
// Invoices, and turned off through its confirmation. The sandbox's operator call runs each charge.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { autoRenewalPaths } from '@portal/contract';
import { confirmBillingAndPay, tabTo } from '../support/billing';
import { appHasThePage, expect, expectAccessible, signIn, test } from '../support/fixtures';
import { expectFitsScreen, MIN_TARGET_PX, WIDTHS } from '../support/layout';
import { PORT } from '../support/ports';

const SECRETS = path.resolve(import.meta.dirname, `../.data/${PORT}/secrets.json`);

/**
 * Basic auth of the sandbox gateway's key: its id when PAYMENT_GATEWAY_KEY_ID is unset
 * (SANDBOX_GATEWAY_KEY_ID, apps/server/src/config.ts), its secret the one the suite's portal
 * generated into its data folder (gatewaySettingsFrom, apps/server/src/adapters/payment-gateway.ts).
 */
function gatewayAuthorization() {
  const secrets = JSON.parse(readFileSync(SECRETS, 'utf8')) as Record<string, string>;
  const key = `rzp_test_sandbox:${secrets.gatewayKeySecret!}`;
  return `Basic ${Buffer.from(key).toString('base64')}`;
}

/**
 * The sandbox operator's call that runs the subscription's next charge as `outcome` says; its
 * webhooks reach the portal before it answers. Answers the subscription's status after it.
 */
async function charge(page: Page, subscriptionId: string, outcome: 'success' | 'failure') {
  const response = await page.request.post(
    `/sandbox/razorpay/v1/sandbox/subscriptions/${subscriptionId}/charge`,
    { headers: { authorization: gatewayAuthorization() }, data: { outcome } },
  );
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { status: string }).status;
}

/** A day as every screen says it (UI.md): dd/mm/yyyy in India. */
const indianDate = (at: Date) =>
  new Intl.DateTimeFormat('en-IN', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'Asia/Kolkata',
  }).format(at);
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A calendar month on, as the gateway counts a monthly cycle: the same day of the month, or the
 * month's last day when it has no such day.
 */
function monthAfter(at: Date) {
  const next = new Date(at);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0));
  next.setUTCDate(Math.min(at.getUTCDate(), lastDay.getUTCDate()));
  return next;
}

/**
 * The Starter plan: 30 days, which the gateway charges as one calendar month (decision 084), and
 * ₹499 + GST and handling, what one debit of its mandate takes.
 */
const STARTER_DAYS = 30;
const STARTER_TOTAL = '₹613.77';

const RETRYING =
  'The last automatic payment did not go through. We will try again; to pay another way, update your payment method.';
const TURN_OFF = 'Turn off auto-renewal';

const autoRenewalCard = (page: Page) => page.getByRole('region', { name: 'Auto-renewal' });

/** The value the card's list gives beside `term`. */
const mandateValue = (card: Locator, term: string) =>
  card
    .locator('dt')
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::dd[1]');

/** A control a thumb presses on a phone: 44 px tall at least (UI.md). */
async function expectThumbSized(control: Locator) {
  expect((await control.boundingBox())!.height).toBeGreaterThanOrEqual(MIN_TARGET_PX);
}

/**
 * Buys the Starter plan on the order screen and pays it at the sandbox checkout; answers when it
 * was paid, from which the plan's period runs. The billing dialogs' own checks are the billing
 * specs'.
 */
async function buyStarter(page: Page) {
  await page.goto('/plans');
  await page.getByRole('button', { name: 'Purchase Plan Starter' }).click();
  await page.waitForURL(/\/orders\?planId=/);
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await confirmBillingAndPay(page, { check: async () => {} });
  await page.waitForURL(/\/sandbox\/razorpay\/checkout\/plink_/);
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.waitForURL(/\/orders\?tab=history/);
  await expect(
    page.locator('tbody tr').filter({ hasText: 'Starter' }).filter({ hasText: 'Completed' }),
  ).toHaveCount(1);
  return new Date();
}

for (const [width, use] of WIDTHS) {
  test.describe(`auto-renewal on a ${width}`, () => {
    test.use(use);
    const phone = width === 'phone';

    test('turned on with UPI Autopay, a failed debit paid by card instead, then turned off', async ({
      page,
      customer,
    }) => {
      // a purchase, an authorisation, two charges and six screens, with axe on most
      test.slow();
      await signIn(page, customer);
      const paidAt = await buyStarter(page);
      // the period bought; the one a debit pays for is the gateway's cycle that starts there
      const paidUntil = new Date(paidAt.getTime() + STARTER_DAYS * DAY_MS);
      const planEnd = indianDate(paidUntil);
      const renewedEnd = indianDate(monthAfter(paidUntil));
      const card = autoRenewalCard(page);
      let subscriptionId = '';

      await test.step('turned on from Plans and authorised with UPI Autopay', async () => {
        await page.goto('/plans');
        await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible();
        const turnOn = card.getByRole('button', { name: 'Turn on auto-renewal' });
        await expect(turnOn).toBeVisible();
        // off: what it would do and for which plan, and no mandate
        await expect(card).toContainText(
          'Auto-renewal is off. Renew your plan automatically at the end of each period',
        );
        await expect(card).toContainText('It renews your Starter plan.');
        await expect(card.locator('dl')).toHaveCount(0);
        await expect(card.getByRole('button', { name: TURN_OFF })).toHaveCount(0);
        await expectAccessible(page, 'Plans with auto-renewal off');
        if (phone) {
          await expectThumbSized(turnOn);
          await expectFitsScreen(page, 'Plans with auto-renewal off', { touch: true });
        }

        await tabTo(page, turnOn);
        await page.keyboard.press('Enter');
        await page.waitForURL(/\/sandbox\/razorpay\/subscribe\/sub_[A-Za-z0-9]+$/);
        subscriptionId = /\/subscribe\/(sub_[A-Za-z0-9]+)$/.exec(page.url())![1]!;
        await expect(page.getByRole('heading', { name: 'Sandbox subscription' })).toBeVisible();
        await expect(page.getByText(`${STARTER_TOTAL} every`)).toBeVisible();
        await expectAccessible(page, 'the gateway’s authorisation page');

        // by keyboard: Tab reaches the group's chosen method, Space chooses it
        const upi = page.getByRole('radio', { name: 'UPI Autopay' });
        await tabTo(page, upi);
        await page.keyboard.press('Space');
        await expect(upi).toBeChecked();
        const authorise = page.getByRole('button', { name: 'Authorise', exact: true });
        await tabTo(page, authorise);
        await page.keyboard.press('Enter');
        await expect(
          page.getByText(
            'The mandate is authorised with UPI Autopay: the first charge is made when the subscription starts.',
          ),
        ).toBeVisible();

        // the gateway's page stays where it is: its way back leads to Plans
        await page.getByRole('link', { name: 'Back to the portal' }).click();
        await page.waitForURL(/\/plans$/);
        await expect(mandateValue(card, 'Plan')).toHaveText('Starter');
        await expect(mandateValue(card, 'Method')).toHaveText('UPI Autopay');
        await expect(mandateValue(card, 'Maximum amount per debit')).toHaveText(STARTER_TOTAL);
        // the first debit falls when the period paid for ends
        await expect(mandateValue(card, 'Next debit')).toHaveText(`${STARTER_TOTAL} on ${planEnd}`);
        await expect(card.getByRole('button', { name: TURN_OFF })).toBeVisible();
        await expectAccessible(page, 'Plans with the mandate');
        if (phone) {
          await expectThumbSized(card.getByRole('button', { name: TURN_OFF }));
          await expectFitsScreen(page, 'Plans with the mandate', { touch: true });
        }

        // the Profile screen shows the same card
        await page.goto('/profile');
        await expect(mandateValue(card, 'Method')).toHaveText('UPI Autopay');
        await expect(mandateValue(card, 'Next debit')).toHaveText(`${STARTER_TOTAL} on ${planEnd}`);
      });

      await test.step('a failed debit: the dashboard’s alert and the bell', async () => {
        expect(await charge(page, subscriptionId, 'failure')).toBe('pending');
        await page.goto('/dashboard');
        const alert = page.getByRole('alert').filter({ hasText: RETRYING });
        await expect(alert).toBeVisible();
        const update = alert.getByRole('link', { name: 'Update payment method' });
        await expect(update).toHaveAttribute(
          'href',
          new RegExp(`/sandbox/razorpay/subscribe/${subscriptionId}$`),
        );
        await expectAccessible(page, 'the dashboard with a failed automatic payment');
        if (phone) {
          await expectThumbSized(update);
          await expectFitsScreen(page, 'the dashboard’s alert', { touch: true });
        }

        const bell = page.getByRole('button', { name: /^Notifications/ });
        await expect(bell).toHaveAccessibleName(/^Notifications, \d+ new$/);
        await bell.click();
        const popover = page.getByRole('dialog', { name: 'Notifications' });
        const failed = popover
          .getByRole('listitem')
          .filter({ hasText: 'Automatic payment failed' });
        await expect(failed).toHaveCount(1);
        await expect(failed).toContainText('New:');
        await expect(failed).toContainText(
          `The automatic payment of ${STARTER_TOTAL} for the Starter plan did not go through`,
        );
        await expectAccessible(page, 'the bell with the failed automatic payment');
        await page.keyboard.press('Escape');
        await expect(popover).toBeHidden();

        // the card says it too, with the same way out, and no next debit while it retries
        await page.goto('/plans');
        await expect(card.getByRole('alert')).toContainText(RETRYING);
        await expect(card.getByRole('link', { name: 'Update payment method' })).toBeVisible();
        await expect(card.locator('dl')).toHaveCount(0);
      });

      await test.step('the debit paid by card instead: a Completed order and its invoice', async () => {
        await page.goto('/invoices');
        const pdfLinks = page.getByRole('link', { name: /^Download the PDF of Invoice / });
        await expect(pdfLinks).toHaveCount(1);
        const firstInvoice = (await pdfLinks.getAttribute('aria-label'))!;

        // paid another way, on the gateway's page the card's link leads to, by keyboard
        await page.goto('/plans');
        await card.getByRole('link', { name: 'Update payment method' }).click();
        await expect(page.getByRole('alert')).toHaveText(
          'The last charge did not go through. Choose how to pay it.',
        );
        await expectAccessible(page, 'the gateway’s page paying the charge due');
        // a radio group takes one Tab, on its checked radio; the arrows move the choice
        await tabTo(page, page.getByRole('radio', { name: 'UPI Autopay' }));
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('ArrowDown');
        await expect(page.getByRole('radio', { name: 'Card', exact: true })).toBeChecked();
        await tabTo(page, page.getByRole('button', { name: 'Pay', exact: true }));
        await page.keyboard.press('Enter');
        await expect(
          page.getByText('The mandate is authorised with Card and the subscription is active.'),
        ).toBeVisible();
        await page.goto('/plans');
        await expect(mandateValue(card, 'Method')).toHaveText('Card');

        await page.goto('/orders?tab=history');
        const completed = page
          .locator('tbody tr')
          .filter({ hasText: 'Starter' })
          .filter({ hasText: 'Completed' });
        await expect(completed).toHaveCount(2);
        await expect(completed.first()).toContainText(STARTER_TOTAL);
        await expect(page.locator('tbody tr').filter({ hasText: 'Failed' })).toHaveCount(0);

        await page.goto('/invoices');
        await expect(pdfLinks).toHaveCount(2);
        const renewalInvoice = page
          .locator('tbody tr')
          .filter({ hasNot: page.getByRole('link', { name: firstInvoice, exact: true }) });
        await expect(renewalInvoice).toHaveCount(1);
        await expect(renewalInvoice).toContainText(/INV\/\d{2}-\d{2}\/\d{6}/);
        await expect(renewalInvoice).toContainText('Issued');
        await expect(renewalInvoice).toContainText(STARTER_TOTAL);

        // the alert has gone, once the app has the page and the renewal it would come from;
        // the plan runs a period on, and so does the next debit
        const renewalRead = page.waitForResponse(
          (response) => new URL(response.url()).pathname === autoRenewalPaths.renewal,
        );
        await page.goto('/dashboard');
        await expect(
          page.getByRole('heading', { name: `Welcome back, ${customer.companyName}!` }),
        ).toBeVisible();
        await appHasThePage(page);
        expect((await renewalRead).ok()).toBe(true);
        await expect(page.getByText(RETRYING)).toHaveCount(0);
        await page.goto('/plans');
        await expect(mandateValue(card, 'Next debit')).toHaveText(
          `${STARTER_TOTAL} on ${renewedEnd}`,
        );
      });

      await test.step('turned off through its confirmation', async () => {
        const turnOff = card.getByRole('button', { name: TURN_OFF });
        await tabTo(page, turnOff);
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: `${TURN_OFF}?` });
        await expect(dialog).toBeVisible();
        await expect(dialog).toHaveAccessibleDescription(
          `Your Starter plan stays until ${renewedEnd}. No further debits will be made, and the mandate is cancelled at the bank.`,
        );
        const confirm = dialog.getByRole('button', { name: TURN_OFF });
        // a destructive action is never the default
        await expect(confirm).not.toBeFocused();
        await expectAccessible(page, 'the turn-off dialog');
        if (phone) await expectThumbSized(confirm);

        await tabTo(page, confirm);
        await page.keyboard.press('Enter');
        await expect(dialog).toBeHidden();
        await expect(
          page.locator('[data-sonner-toast]').filter({ hasText: 'Auto-renewal turned off' }),
        ).toBeVisible();
        await expect(card).toContainText(
          `Auto-renewal is off. Your plan ends on ${renewedEnd}; no further debits will be made.`,
        );
        await expect(card.getByRole('button', { name: TURN_OFF })).toHaveCount(0);
        await expect(card.locator('dl')).toHaveCount(0);
        await expectAccessible(page, 'Plans with auto-renewal turned off');
      });
    });
  });
}
