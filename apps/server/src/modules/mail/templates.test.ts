import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxMailer, type Mailer } from '../../adapters/mail';
import { linksOf, readOutbox, type ReadMail } from '../../test/mail';
import { BRAND } from './layout';
import {
  consentStatusMail,
  newBrowserMail,
  passwordChangedMail,
  passwordResetLinkMail,
  signInCodeMail,
  type RenderedMail,
} from './templates';
import { receiptMail } from '../invoices/invoice-mail';

// a portal under a path, so that a link built from the host alone would show
const ctx = { publicUrl: 'https://portal.example.in/customers/' };
const HOME = 'https://portal.example.in/customers';
const HOSTILE = `<script>alert("x")</script> & 'Sons' <b>Ltd</b>`;
const AT = '2027-01-05T04:44:00.000Z'; // 10:14 in India

let dir: string;
let mailer: Mailer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mail-templates-'));
  mailer = createOutboxMailer(dir, 'Connected Banking Portal <no-reply@portal.example.in>');
});
afterAll(async () => {
  mailer.close();
  await rm(dir, { recursive: true, force: true });
});

/** Sends the rendered mail through the real outbox and reads it back as a mail client would. */
async function delivered(mail: RenderedMail): Promise<ReadMail> {
  await mailer.send({ to: 'customer@example.test', ...mail });
  return (await readOutbox(dir)).at(-1)!;
}

function expectBranded(mail: ReadMail) {
  expect(mail.html).toContain(BRAND.name);
  expect(mail.html).toContain(BRAND.navy);
  expect(mail.html).toContain(BRAND.blue);
  const links = linksOf(mail.html);
  expect(links.length).toBeGreaterThan(0);
  for (const link of links) expect(link.startsWith(`${HOME}/`)).toBe(true);
  expect(links).toContain(`${HOME}/login`);
}

describe('the sign-in code mail', () => {
  it('shows the code in the preview, the text and the HTML, and links to the portal', async () => {
    const mail = await delivered(await signInCodeMail({ code: '042917' }, ctx));
    expect(mail.subject).toBe('Your verification code');
    expect(mail.text.trim()).toBe(
      [
        'Your verification code is 042917',
        '',
        'Enter it in the portal within 10 minutes to finish signing in.',
        'If you did not try to sign in, change your password at once.',
      ].join('\n'),
    );
    // the preview is the first text of the body, hidden, before the brand bar
    const body = mail.html.slice(mail.html.indexOf('<body'));
    expect(body.indexOf('042917 is your verification code')).toBeGreaterThan(-1);
    expect(body.indexOf('042917 is your verification code')).toBeLessThan(body.indexOf(BRAND.name));
    expect(mail.html.match(/042917/g)!.length).toBe(2);
    expectBranded(mail);
  });
});

describe('the reset link mail', () => {
  it('carries the link, with its token intact, as a button and as an address', async () => {
    const link = `${HOME}/reset-password?token=a-b_c%2Bd&x=1`;
    const mail = await delivered(await passwordResetLinkMail({ link }, ctx));
    expect(mail.subject).toBe('Reset your password');
    expect(mail.text).toContain(`Set a new password here: ${link}\n`);
    expect(linksOf(mail.html).filter((l) => l === link)).toHaveLength(2);
    expect(mail.html).toMatch(/>\s*Set a new password\s*</);
    expectBranded(mail);
  });
});

describe('the password notice', () => {
  it('says when and what, and links to the reset page', async () => {
    const mail = await delivered(await passwordChangedMail({ how: 'reset', at: AT }, ctx));
    expect(mail.subject).toBe('Your password was changed');
    expect(mail.text).toContain('The password of your portal account was just reset.');
    expect(mail.html).toContain('05/01/2027, 10:14 (India time)');
    expect(mail.html).toContain('Password reset by e-mail link');
    expect(linksOf(mail.html)).toContain(`${HOME}/reset-password`);
    expectBranded(mail);
  });

  it('names a change made while signed in as a change', async () => {
    const mail = await delivered(await passwordChangedMail({ how: 'changed', at: AT }, ctx));
    expect(mail.text).toContain('The password of your portal account was just changed.');
    expect(mail.html).toContain('Password changed');
  });
});

describe('the new browser notice', () => {
  it('says when and which browser, escapes what the browser sent, and links to the reset page', async () => {
    const mail = await delivered(
      await newBrowserMail({ at: AT, browser: HOSTILE, companyName: HOSTILE }, ctx),
    );
    expect(mail.subject).toBe('New sign-in to your portal account');
    expect(mail.text).toContain('When: 05/01/2027, 10:14 (India time)');
    expect(mail.text).toContain(`Browser: ${HOSTILE}`);
    expect(mail.text).toContain(`${HOME}/reset-password`);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>Ltd');
    expect(mail.html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Sons&#39;',
    );
    expect(mail.html).toContain('05/01/2027, 10:14 (India time)');
    expectBranded(mail);
  });
});

describe('the consent status notice', () => {
  it('names the consent, the partner and both states, escaped, and links to the consents', async () => {
    const mail = await delivered(
      await consentStatusMail(
        {
          at: AT,
          consentId: 'CNS-1234',
          partnerName: HOSTILE,
          previousStatus: 'Pending',
          status: 'Approved',
          companyName: 'Acme Traders',
        },
        ctx,
      ),
    );
    expect(mail.subject).toBe('A banking consent changed status');
    expect(mail.text).toContain(`Your banking consent with ${HOSTILE} is now Approved.`);
    expect(mail.text).toContain('Status: Approved (was Pending)');
    expect(mail.text).toContain('When: 05/01/2027, 10:14 (India time)');
    expect(mail.html).toContain('CNS-1234');
    expect(mail.html).toContain('Dear Acme Traders,');
    expect(mail.html).not.toContain('<script>');
    expect(linksOf(mail.html)).toContain(`${HOME}/consents`);
    expectBranded(mail);
  });
});

describe('the receipt mail', () => {
  it('attaches the invoice PDF and says the amount in Indian rupees', async () => {
    const pdf = Buffer.from('%PDF-1.7\n% a stand-in body is enough for the mail\n%%EOF\n');
    const mail = await delivered(
      await receiptMail(
        {
          orderId: '4fa65d2e-0000-4000-8000-000000000000',
          invoiceNumber: 'INV/2026-27/000042',
          planName: HOSTILE,
          totalPaise: 12_345_600,
          paidAt: AT,
          companyName: 'Acme Traders',
        },
        pdf,
        ctx,
      ),
    );
    expect(mail.subject).toBe('Your invoice INV/2026-27/000042');
    expect(mail.text).toContain('₹1,23,456.00');
    expect(mail.text).toContain('order #4FA65D');
    expect(mail.text).toContain(`${HOME}/orders`);
    expect(mail.html).not.toContain('<script>');
    expect(mail.attachments).toEqual([
      {
        filename: 'Invoice-INV-2026-27-000042.pdf',
        contentType: 'application/pdf',
        content: pdf,
      },
    ]);
    expectBranded(mail);
  });
});
