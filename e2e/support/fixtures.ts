import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type Page } from '@playwright/test';

export const DEMO = {
  email: 'demo@acme.example',
  mobile: '9876543210',
  gstNo: '27AAPFU0939F1ZV',
  tallySerialNo: '712345678',
  password: 'Demo@12345',
  companyName: 'Acme Traders Pvt Ltd',
} as const;

const PORT = Number(process.env.E2E_PORT ?? 3100);
const OUTBOX = path.resolve(import.meta.dirname, `../.data/${PORT}/outbox`);

function decodeQuotedPrintable(raw: string) {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The newest .eml file of the outbox, decoded. */
export function newestMail(): string {
  const files = readdirSync(OUTBOX)
    .filter((f) => f.endsWith('.eml'))
    .sort();
  const newest = files.at(-1);
  if (!newest) throw new Error('the outbox is empty');
  return decodeQuotedPrintable(readFileSync(path.join(OUTBOX, newest), 'utf8'));
}

export function mailCount(): number {
  try {
    return readdirSync(OUTBOX).filter((f) => f.endsWith('.eml')).length;
  } catch {
    return 0;
  }
}

/** Waits for a mail newer than `before` and returns the 6-digit code in it. */
export async function waitForCode(before: number): Promise<string> {
  await expect.poll(mailCount, { timeout: 10_000 }).toBeGreaterThan(before);
  const code = newestMail().match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error('no code in the newest mail');
  return code;
}

/**
 * Fails on any axe-core violation of the page as it is now; `where` names it in the message.
 * Toasts fade in, stack and fade out: axe waits until they have come to rest, since a title
 * measured half-faded fails on contrast that the settled toast passes.
 */
export async function expectAccessible(page: Page, where?: string) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => {
          const target = (animation.effect as KeyframeEffect | null)?.target;
          return target instanceof Element && target.closest('[data-sonner-toaster]');
        })
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    where && `${where}: axe violations`,
  ).toEqual([]);
}

/** Signs the demo customer in through the login screen and the e-mailed code. */
export async function signIn(
  page: Page,
  options: { rememberMe?: boolean; password?: string } = {},
) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Mobile Number').fill(DEMO.mobile);
  await page.getByLabel('GST Number').fill(DEMO.gstNo);
  await page.getByLabel('Tally Serial Number').fill(DEMO.tallySerialNo);
  await page.getByLabel('Password', { exact: true }).fill(options.password ?? DEMO.password);
  if (options.rememberMe) await page.getByLabel('Remember me').check();
  const before = mailCount();
  await page.getByRole('button', { name: 'Secure Login' }).click();
  const code = await waitForCode(before);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify & Login' }).click();
  await page.waitForURL('**/dashboard');
}

export const test = base;
export { expect };
