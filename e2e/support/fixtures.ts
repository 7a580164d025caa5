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

/** The outbox's .eml files, oldest first, decoded. */
function mails(): string[] {
  let files: string[];
  try {
    files = readdirSync(OUTBOX).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return files.sort().map((f) => decodeQuotedPrintable(readFileSync(path.join(OUTBOX, f), 'utf8')));
}

/** The newest .eml file of the outbox, decoded. */
export function newestMail(): string {
  const newest = mails().at(-1);
  if (!newest) throw new Error('the outbox is empty');
  return newest;
}

export const mailCount = (): number => mails().length;

/**
 * Waits for a mail newer than the first `before` mails whose decoded text matches `pattern`,
 * and answers the match.
 */
export async function waitForMailMatching(before: number, pattern: RegExp) {
  const find = () =>
    mails()
      .slice(before)
      .map((mail) => pattern.exec(mail))
      .find(Boolean) ?? null;
  await expect.poll(find, { timeout: 10_000 }).not.toBeNull();
  return find()!;
}

/** The code of the newest sign-in code mail after the first `before` mails, if one has come. */
function newCode(before: number): string | undefined {
  return mails()
    .slice(before)
    .reverse()
    .map((mail) => /Your verification code is (\d{6})\b/.exec(mail)?.[1])
    .find(Boolean);
}

/**
 * Waits for a sign-in code mail newer than the first `before` mails and returns its code; other
 * mails (a notice of a sign-in from a new browser, say) may arrive beside it.
 */
export async function waitForCode(before: number): Promise<string> {
  await expect.poll(() => newCode(before) ?? null, { timeout: 10_000 }).not.toBeNull();
  return newCode(before)!;
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

/**
 * Clicks Secure Login on the filled sign-in form and answers the code mailed for it. A test that
 * asks for a code waits for its mail even if it never enters it: a code mail still queued when a
 * test ends would land after the next test counted the outbox, and pass for its code.
 */
export async function requestCode(page: Page): Promise<string> {
  const before = mailCount();
  await page.getByRole('button', { name: 'Secure Login' }).click();
  return waitForCode(before);
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
  const code = await requestCode(page);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify & Login' }).click();
  await page.waitForURL('**/dashboard');
}

export const test = base;
export { expect };
