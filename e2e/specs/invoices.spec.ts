import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from '../support/fixtures';

const widths = [
  ['desktop', { viewport: { width: 1280, height: 900 } }],
  ['phone', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }],
] as const;

/**
 * Orders the Starter plan through the API as the order screen does (the billing address saved
 * first), and answers the sandbox checkout's address for it.
 */
async function orderStarter(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const { token, user } = JSON.parse(localStorage.getItem('auth-storage')!).state;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const billing = await fetch('/api/billing-details', {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        gstin: '27AAPFU0939F1ZV',
        addressLine1: 'Office 4, Baner Road',
        city: 'Pune',
        stateCode: '27',
        pin: '411045',
      }),
    });
    if (billing.status !== 200) throw new Error(`billing details: ${billing.status}`);
    const { data } = await (await fetch('/api/plans', { headers })).json();
    const starter = data.plans.find((p: { planName: string }) => p.planName === 'Starter');
    const order = await fetch('/api/orders', {
      method: 'POST',
      headers,
      body: JSON.stringify({ planId: starter._id, amount: 613.77 }),
    });
    if (order.status !== 201) throw new Error(`order: ${order.status}`);
    const orderId = (await order.json()).order._id as string;
    const payment = await fetch('/api/create-payment', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        order_id: orderId,
        amount: 613.77,
        customer_name: user.company_name,
        customer_email: user.email,
        customer_phone: user.mobile,
        planType: starter.planType,
      }),
    });
    if (payment.status !== 200) throw new Error(`payment: ${payment.status}`);
    return (await payment.json()).paymentUrl as string;
  });
}

/** The text of a PDF, as Poppler's pdftotext lays it out, spaces collapsed. */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'invoice-'));
  try {
    const file = path.join(dir, 'invoice.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(
      /[ \t]+/g,
      ' ',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const [width, use] of widths) {
  test.describe(`invoices on a ${width}`, () => {
    test.use(use);

    test('a paid plan’s invoice is in Order history and in Invoices, and its PDF downloads', async ({
      page,
      customer,
    }) => {
      await signIn(page, customer);
      await page.goto('/plans');
      await expect(page.getByRole('heading', { name: 'Starter' })).toBeVisible();
      await page.goto(await orderStarter(page));
      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForURL(/\/orders\?tab=history/);

      // the newest order is the one just paid: its invoice number links to Invoices
      const invoiceLink = page
        .getByRole('link', { name: /^Invoice INV\/\d{2}-\d{2}\/\d{6}$/ })
        .first();
      await expect(invoiceLink).toBeVisible();
      const number = (await invoiceLink.textContent())!.replace('Invoice ', '');
      expect(number.length).toBeLessThanOrEqual(16);
      await invoiceLink.click();

      await page.waitForURL(/\/invoices$/);
      await expect(page).toHaveTitle('Invoices · Customer Portal');
      await expect(page.getByRole('heading', { name: 'Invoices', level: 1 })).toBeVisible();
      const pdfLink = page.getByRole('link', { name: `Download the PDF of Invoice ${number}` });
      await expect(pdfLink).toBeVisible();
      const card = page.locator('tr').filter({ has: pdfLink });
      await expect(card).toContainText(number);
      await expect(card).toContainText('Issued');
      await expect(card).toContainText('₹613.77');
      // registered with the sandbox IRP before it was drawn: its IRN in short, whole for a reader
      await expect(card).toContainText(/IRN [0-9a-f]{8}…[0-9a-f]{4}/);
      await expect(card).toContainText(/Ack No \d{15}/);
      const irn = /IRN ([0-9a-f]{64})/.exec((await card.textContent())!)![1]!;
      const ackNo = /Ack No (\d{15})/.exec((await card.textContent())!)![1]!;
      await expectAccessible(page, `the invoices list on a ${width}`);
      if (width === 'phone') {
        // nothing scrolls sideways, and the download is a full-size touch target
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          390,
        );
        expect((await pdfLink.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      }

      // the link opens the PDF in a new tab, without the session's token
      expect(await pdfLink.getAttribute('target')).toBe('_blank');
      const download = await page.request.get((await pdfLink.getAttribute('href'))!);
      expect(download.status()).toBe(200);
      expect(download.headers()['content-type']).toBe('application/pdf');
      const text = pdfText(await download.body());
      expect(text).toContain(`Invoice No: ${number}`);
      expect(text).toContain('Reverse charge: No');
      expect(text).toContain('Total ₹613.77');
      expect(text).not.toContain('valid without a signature');
      expect(text).toContain(`Ack No: ${ackNo}`);
      expect(text.replace(/\s/g, '')).toContain(`IRN:${irn}`);
    });
  });
}
