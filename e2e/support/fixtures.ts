import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type * as AxeCore from 'axe-core';
import {
  expect,
  test as base,
  type APIRequestContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { customerServicePort, PORT } from './ports';

/** What a customer signs in with. */
export interface Credentials {
  email: string;
  mobile: string;
  gstNo: string;
  tallySerialNo: string;
  password: string;
  companyName: string;
}

/** A customer of one test's own, with the demo's profile and sample consents (customer-service.mjs). */
export interface TestCustomer extends Credentials {
  id: string;
}

/** The README's demo account: signed in with only by the test of that account itself. */
export const DEMO: Credentials = {
  email: 'demo@acme.example',
  mobile: '9876543210',
  gstNo: '27AAPFU0939F1ZV',
  tallySerialNo: '712345678',
  password: 'Demo@12345',
  companyName: 'Acme Traders Pvt Ltd',
};

const OUTBOX = path.resolve(import.meta.dirname, `../.data/${PORT}/outbox`);
const CUSTOMERS = `http://127.0.0.1:${customerServicePort(PORT)}/customers`;

function decodeQuotedPrintable(raw: string) {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The outbox's mails read so far, by file name: each file is written once, whole. */
const read = new Map<string, { to: string; text: string }>();

/**
 * The outbox's .eml files to `to`, oldest first, decoded. Each test has an address of its own,
 * so the mails of tests running beside it are never counted.
 */
function mails(to: string): string[] {
  let files: string[];
  try {
    files = readdirSync(OUTBOX).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  const recipient = to.toLowerCase();
  return files.sort().flatMap((file) => {
    let mail = read.get(file);
    if (!mail) {
      const text = decodeQuotedPrintable(readFileSync(path.join(OUTBOX, file), 'utf8'));
      mail = { to: /^To: (.*)$/m.exec(text)?.[1]?.trim().toLowerCase() ?? '', text };
      read.set(file, mail);
    }
    return mail.to === recipient ? [mail.text] : [];
  });
}

export const mailCount = (to: string): number => mails(to).length;

/**
 * Waits for a mail to `to` newer than its first `before` mails whose decoded text matches
 * `pattern`, and answers the match.
 */
export async function waitForMailMatching(to: string, before: number, pattern: RegExp) {
  const find = () =>
    mails(to)
      .slice(before)
      .map((mail) => pattern.exec(mail))
      .find(Boolean) ?? null;
  await expect.poll(find, { timeout: 10_000 }).not.toBeNull();
  return find()!;
}

/** The code of the newest sign-in code mail to `to` after its first `before`, if one has come. */
function newCode(to: string, before: number): string | undefined {
  return mails(to)
    .slice(before)
    .reverse()
    .map((mail) => /Your verification code is (\d{6})\b/.exec(mail)?.[1])
    .find(Boolean);
}

/**
 * Waits for a sign-in code mail to `to` newer than its first `before` mails and returns its
 * code; other mails (a notice of a sign-in from a new browser, say) may arrive beside it.
 */
export async function waitForCode(to: string, before: number): Promise<string> {
  await expect.poll(() => newCode(to, before) ?? null, { timeout: 10_000 }).not.toBeNull();
  return newCode(to, before)!;
}

/**
 * Fails on any axe-core violation of the page as it is now; `where` names it in the message.
 * Toasts fade in and buttons ease from one colour to the next: axe waits until every finite
 * animation and transition has come to rest, since a text measured half-way (white on a
 * background still turning blue, say) fails on contrast that the settled page passes. A render
 * a frame later may start another (a button leaving its busy look), so the page must stay still
 * for two frames in a row. Endless ones (spinners, skeletons) never finish and are not waited for.
 */
export async function expectAccessible(page: Page, where?: string) {
  await page.evaluate(async () => {
    // one held paused would never finish: past this axe measures the page as it stands
    const deadline = performance.now() + 2_000;
    const moving = () =>
      document
        .getAnimations()
        .filter(
          (animation) =>
            animation.effect?.getComputedTiming().iterations !== Infinity &&
            animation.playState !== 'finished',
        );
    const frame = () => new Promise((settle) => requestAnimationFrame(settle));
    for (let still = 0; still < 2 && performance.now() < deadline; await frame()) {
      const now = moving();
      if (now.length === 0) {
        still += 1;
        continue;
      }
      still = 0;
      await Promise.race([
        Promise.all(now.map((animation) => animation.finished.catch(() => undefined))),
        new Promise((settle) => setTimeout(settle, deadline - performance.now())),
      ]);
    }
  });
  expect(await axeViolations(page), where && `${where}: axe violations`).toEqual([]);
}

// axe-core, configured as it is put in: a page keeps it until it loads another document
const AXE_SOURCE = `${readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)};axe.configure({ allowedOrigins: ['<same_origin>'] });`;

/**
 * axe-core's violations of the page, each as its rule and the elements that break it. A page of
 * one frame (all of the portal's) gets axe once per document and runs it in place: 0.5–1.5 s
 * quicker a check than `AxeBuilder`, which injects axe anew each time and merges in a blank tab
 * of its own. A page with frames goes through `AxeBuilder`, which reaches into each.
 */
async function axeViolations(page: Page): Promise<string[]> {
  let violations: { id: string; nodes: { target: unknown[] }[] }[];
  if (page.frames().length > 1) {
    ({ violations } = await new AxeBuilder({ page }).analyze());
  } else {
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
    violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: typeof AxeCore }).axe;
      const results = await axe.run(document);
      return results.violations.map(({ id, nodes }) => ({
        id,
        nodes: nodes.map(({ target }) => ({ target: [...target] })),
      }));
    });
  }
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Fills the sign-in form with `who`'s details, and `password` if given instead of theirs. */
export async function fillCredentials(page: Page, who: Credentials, password = who.password) {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Mobile Number').fill(who.mobile);
  await page.getByLabel('GST Number').fill(who.gstNo);
  await page.getByLabel('Tally Serial Number').fill(who.tallySerialNo);
  await page.getByLabel('Password', { exact: true }).fill(password);
}

/** Signs out from the Profile screen's Logout, back to the login screen. */
export async function signOut(page: Page) {
  await page.goto('/profile');
  await page.getByRole('main').getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
}

/**
 * The password step of a customer whose second step is not the mailed code (an authenticator
 * app, a passkey): answers the two-factor modal it opens.
 */
export async function passwordStep(page: Page, who: Credentials): Promise<Locator> {
  await page.goto('/login');
  await fillCredentials(page, who);
  await page.getByRole('button', { name: 'Secure Login' }).click();
  return page.getByRole('dialog', { name: 'Two-Factor Authentication' });
}

/**
 * Clicks Secure Login on the filled sign-in form and answers the code mailed to `to` for it. A
 * test that asks for a code waits for its mail even if it never enters it: a code mail still
 * queued when a test ends would land after the next one counted the outbox, and pass for its code.
 */
export async function requestCode(page: Page, to: string): Promise<string> {
  const before = mailCount(to);
  await page.getByRole('button', { name: 'Secure Login' }).click();
  return waitForCode(to, before);
}

/**
 * Signs `who` in through the login screen and the e-mailed code: for the tests of those screens
 * (auth.spec.ts, keyboard.spec.ts, responsive.spec.ts). Others sign in with `signIn`.
 */
export async function signInOnScreen(
  page: Page,
  who: Credentials,
  options: { rememberMe?: boolean; password?: string } = {},
) {
  await page.goto('/login');
  await fillCredentials(page, who, options.password);
  if (options.rememberMe) await page.getByLabel('Remember me').check();
  const code = await requestCode(page, who.email);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify & Login' }).click();
  await page.waitForURL('**/dashboard');
}

/**
 * Signs `who` in as the login screen would, through the same two calls and the e-mailed code,
 * made from the page's browser (its cookies and user agent), then opens the dashboard. The
 * session is handed to the app as the screens leave it: `auth-storage` in local storage, written
 * once, before the app's first load. About 2.5 s quicker than the screens on two cores.
 */
export async function signIn(page: Page, who: Credentials) {
  const headers = {
    // the app's own origin (the configuration's baseURL), as the login screen sends it
    origin: `http://localhost:${PORT}`,
    'user-agent': await page.evaluate(() => navigator.userAgent),
  };
  const before = mailCount(who.email);
  const { email, mobile, gstNo, tallySerialNo, password } = who;
  const login = await page.request.post('/api/auth/login', {
    headers,
    data: { email, mobile, gstNo, tally_serialno: tallySerialNo, password },
  });
  const { tempToken } = (await login.json()) as { tempToken?: string };
  if (!tempToken) throw new Error(`sign-in refused: ${login.status()} ${await login.text()}`);
  const verificationCode = await waitForCode(who.email, before);
  const verified = await page.request.post('/api/auth/verify-2fa', {
    headers,
    data: { tempToken, verificationCode },
  });
  if (!verified.ok())
    throw new Error(`code refused: ${verified.status()} ${await verified.text()}`);
  const { token, user } = (await verified.json()) as { token: string; user: object };
  // as the app's session store keeps it (apps/web/src/lib/session-store.ts); the answer's user
  // carries both `_id` and `id`
  const session = {
    state: { user, token, isAuthenticated: true, rememberMe: false },
    version: 0,
  };
  await page.addInitScript(
    ({ value, token }) => {
      // each session once per tab: a later load (after a logout, say) finds what the app left,
      // and a second sign-in in the same tab is not undone by the first one's script
      const handed = `e2e-session-handed:${token}`;
      if (sessionStorage.getItem(handed)) return;
      sessionStorage.setItem(handed, 'yes');
      localStorage.setItem('auth-storage', value);
    },
    { value: JSON.stringify(session), token },
  );
  await page.goto('/dashboard');
  // the dashboard's own heading: the URL alone holds until the app sends a stranger to /login
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome back, / })).toBeVisible();
  await appHasThePage(page);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * Waits until the app has taken the page over from the first HTML's frame (apps/web/vite.config.ts),
 * which already shows the sign-in screen, the menu and the dashboard's heading. A click before
 * then is the browser's own: on a frame's link it starts a full load that cuts off the app's
 * requests (a token's refresh among them), and while the app replaces the frame it can land on
 * neither link, so that nothing happens.
 */
export async function appHasThePage(page: Page) {
  await expect(page.locator('[data-frame]')).toHaveCount(0);
}

/** A customer of the test's own, retired from the sandbox bank once `use` is done with it. */
async function withCustomer(
  request: APIRequestContext,
  query: string,
  use: (customer: TestCustomer) => Promise<void>,
) {
  const made = await request.post(`${CUSTOMERS}${query}`);
  if (!made.ok()) throw new Error(`no customer was made: ${await made.text()}`);
  const customer = (await made.json()) as TestCustomer;
  await use(customer);
  await request.delete(`${CUSTOMERS}/${customer.id}`);
}

/**
 * `customer`: a customer of the test's own, whose sample requests leave the bank after it;
 * `customerWithRefusedMail`: one whose every mail the mail server refuses (refused-mail.ts).
 */
export const test = base.extend<{
  customer: TestCustomer;
  customerWithRefusedMail: TestCustomer;
}>({
  customer: async ({ request }, use) => withCustomer(request, '', use),
  customerWithRefusedMail: async ({ request }, use) => withCustomer(request, '?mail=refused', use),
  page: async ({ page }, use, testInfo) => {
    const met = whatThePageMeets(page);
    await use(page);
    if (testInfo.status === testInfo.expectedStatus) return;
    // a failure far from its cause (a session ended unasked, a chunk that never came) names
    // its cause here, in CI's printed output too: a failed run's trace does not outlive it
    const report = [`the page ended at ${page.url()}`, ...met].join('\n');
    await testInfo.attach('what the page met', { body: report, contentType: 'text/plain' });
    console.log(`${testInfo.titlePath.join(' › ')}: what the page met\n${report}`);
  },
});

/** The refused answers, failed requests and uncaught errors of a page, as they come. */
function whatThePageMeets(page: Page): string[] {
  const met: string[] = [];
  const at = (url: string) => new URL(url).pathname;
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const where = `${response.status()} ${response.request().method()} ${at(response.url())}`;
    void response.text().then(
      (body) => met.push(`${where} ${body.slice(0, 200)}`),
      () => met.push(where),
    );
  });
  page.on('requestfailed', (request) =>
    met.push(`failed ${request.method()} ${at(request.url())}: ${request.failure()?.errorText}`),
  );
  page.on('pageerror', (error) => met.push(`uncaught: ${error.message}`));
  return met;
}
export { expect };
