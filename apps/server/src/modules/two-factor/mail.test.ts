import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxMailer, type Mailer } from '../../adapters/mail';
import { linksOf, readOutbox, type ReadMail } from '../../test/mail';
import { twoFactorMail } from './mail';

// a portal under a path, so that a link built from the host alone would show
const ctx = { publicUrl: 'https://portal.example.in/customers/' };
const HOME = 'https://portal.example.in/customers';
const AT = '2027-01-05T04:44:00.000Z'; // 10:14 in India
const WHEN = '05/01/2027, 10:14 (India time)';
const ON =
  'Signing in to your portal account now asks for a code from your authenticator app instead of a code by e-mail.';
const OFF =
  'Signing in to your portal account no longer asks for a code from your authenticator app: the code comes by e-mail again.';
const NOT_YOU =
  'If this was not you, reset your password at once with "Forgot password?" on the sign-in screen.';

let dir: string;
let mailer: Mailer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'two-factor-mail-'));
  mailer = createOutboxMailer(dir, 'Connected Banking Portal <no-reply@portal.example.in>');
});
afterAll(async () => {
  mailer.close();
  await rm(dir, { recursive: true, force: true });
});

/** The notice, sent through the real outbox and read back as a mail client would. */
async function delivered(on: boolean): Promise<ReadMail> {
  const mail = await twoFactorMail({ on, at: AT, companyName: 'Acme Traders' }, ctx);
  await mailer.send({ to: 'customer@example.test', ...mail });
  return (await readOutbox(dir)).at(-1)!;
}

const count = (html: string, text: string) => html.split(text).length - 1;

describe('the notice of the authenticator app turned on or off', () => {
  it('says the app was turned on, when, and what to do if it was not the customer', async () => {
    const mail = await delivered(true);
    expect(mail.subject).toBe('Authenticator app turned on');
    expect(mail.text.trim()).toBe([ON, '', `When: ${WHEN}`, '', NOT_YOU].join('\n'));
  });

  it('says the app was turned off and sign-in codes come by e-mail again', async () => {
    const mail = await delivered(false);
    expect(mail.subject).toBe('Authenticator app turned off');
    expect(mail.text.trim()).toBe([OFF, '', `When: ${WHEN}`, '', NOT_YOU].join('\n'));
  });

  it('shows the same in HTML, with the time labelled, and a button to the security page', async () => {
    const mail = await delivered(false);
    expect(mail.html).toContain('Dear Acme Traders,');
    // once as the hidden preview, once in the body
    expect(count(mail.html, OFF)).toBe(2);
    expect(mail.html).toMatch(new RegExp(`>When</td><td[^>]*>${WHEN.replace(/[()]/g, '\\$&')}<`));
    expect(mail.html).toContain(NOT_YOU.replaceAll('"', '&quot;'));
    expect(mail.html).toMatch(/>\s*Review your security\s*</);
    expect(linksOf(mail.html).filter((link) => link === `${HOME}/security`)).toHaveLength(2);
  });
});
