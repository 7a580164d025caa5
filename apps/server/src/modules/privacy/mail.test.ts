import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxMailer, type Mailer } from '../../adapters/mail';
import { linksOf, readOutbox, type ReadMail } from '../../test/mail';
import { privacyMail, type PrivacyMailData } from './mail';

// a portal under a path, so that a link built from the host alone would show
const ctx = { publicUrl: 'https://portal.example.in/customers/' };
const HOME = 'https://portal.example.in/customers';
const AT = '2027-01-05T04:44:00.000Z'; // 10:14 in India
const WHEN = '05/01/2027, 10:14 (India time)';
const NOT_YOU = 'If this was not you, change your password at once.';
const CLOSE = 'Enter it in the portal within 10 minutes to close your account.';
const CONFIRM = 'Enter it in the portal within 10 minutes to confirm this new address.';
const CHANGED =
  'The e-mail address of your portal account was changed to new@example.test. Mail goes to the new address from now on.';
const READY =
  'The copy of your data you asked for is ready: a ZIP file with everything the portal holds about you, and your invoice PDFs.';
const NOT_ASKED = 'If you did not ask for it, do not open the link, and change your password.';
const LINK = 'https://portal.example.in/customers/api/privacy/data-export/file?sig=abc';

let dir: string;
let mailer: Mailer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'privacy-mail-'));
  mailer = createOutboxMailer(dir, 'Connected Banking Portal <no-reply@portal.example.in>');
});
afterAll(async () => {
  mailer.close();
  await rm(dir, { recursive: true, force: true });
});

/** The mail, sent through the real outbox and read back as a mail client would. */
async function delivered(data: PrivacyMailData): Promise<ReadMail> {
  await mailer.send({ to: 'customer@example.test', ...(await privacyMail(data, ctx)) });
  return (await readOutbox(dir)).at(-1)!;
}

const count = (html: string, text: string) => html.split(text).length - 1;
const escaped = (text: string) => text.replace(/[()]/g, '\\$&');

describe('the code for a privacy step', () => {
  it('gives the code to close the account, and says what it is for', async () => {
    const mail = await delivered({ kind: 'close-account-code', code: '482913' });
    expect(mail.subject).toBe('Your verification code');
    expect(mail.text.trim()).toBe(
      ['Your verification code is 482913', '', CLOSE, NOT_YOU].join('\n'),
    );
    expect(mail.html).toContain(`482913 is your verification code. ${CLOSE}`);
    expect(count(mail.html, '482913')).toBe(2);
    expect(mail.html).toContain('Your verification code is');
    expect(count(mail.html, CLOSE)).toBe(2);
    expect(mail.html).toContain(NOT_YOU);
  });

  it('gives the code to confirm a new address', async () => {
    const mail = await delivered({ kind: 'email-change-code', code: '007311' });
    expect(mail.subject).toBe('Your verification code');
    expect(mail.text.trim()).toBe(
      ['Your verification code is 007311', '', CONFIRM, NOT_YOU].join('\n'),
    );
    expect(mail.html).toContain(`007311 is your verification code. ${CONFIRM}`);
    expect(mail.html).not.toContain(CLOSE);
  });
});

describe('the notice of a changed address', () => {
  it('names the new address and when, and offers a password reset', async () => {
    const mail = await delivered({ kind: 'email-changed', at: AT, newEmail: 'new@example.test' });
    expect(mail.subject).toBe('Your e-mail address was changed');
    expect(mail.text.trim()).toBe([CHANGED, '', `When: ${WHEN}`, '', NOT_YOU].join('\n'));
    // once as the hidden preview, once in the body
    expect(count(mail.html, CHANGED)).toBe(2);
    expect(mail.html).toMatch(new RegExp(`>When</td><td[^>]*>${escaped(WHEN)}<`));
    expect(mail.html).toContain(NOT_YOU);
    expect(mail.html).toMatch(/>\s*Reset your password\s*</);
    expect(linksOf(mail.html)).toContain(`${HOME}/reset-password`);
  });
});

describe('the notice that the data download is ready', () => {
  it('gives the link and until when it works', async () => {
    const mail = await delivered({ kind: 'data-export-ready', link: LINK, expiresAt: AT });
    expect(mail.subject).toBe('Your data is ready to download');
    expect(mail.text.trim()).toBe(
      [READY, '', `Download it: ${LINK}`, '', `The link works until ${WHEN}.`, NOT_YOU].join('\n'),
    );
    expect(count(mail.html, READY)).toBe(2);
    expect(mail.html).toMatch(new RegExp(`>Link works until</td><td[^>]*>${escaped(WHEN)}<`));
    expect(mail.html).toContain(NOT_ASKED);
    expect(mail.html).toMatch(/>\s*Download your data\s*</);
    expect(linksOf(mail.html)).toContain(LINK);
  });
});
