import { customerDateTime, formatPaise, orderRef } from '@portal/contract';
import type { CreditNoteMailData } from '../invoices/credit-note-mail';
import { portalUrl } from './format';
import { renderLayout } from './layout';
import type { ReminderMailData } from '../reminders/mail';
import type { TwoFactorMailData } from '../two-factor/mail';
import type { PrivacyMailData } from '../privacy/mail';
import type { DeadLetterDigestData } from './dead-letter-digest';
import type { MailContext, RenderedMail } from './rendered';

export type { MailAttachment, MailContext, RenderedMail } from './rendered';

/**
 * Every mail the portal sends, by name, with the data it is made from. The data is plain JSON
 * (times as ISO strings), because it waits in the job queue until a worker sends it.
 */
export type MailRequest =
  | { template: 'reminder'; to: string; data: ReminderMailData }
  | { template: 'sign-in-code'; to: string; data: { code: string } }
  | { template: 'password-reset-link'; to: string; data: { link: string } }
  | {
      template: 'password-changed';
      to: string;
      data: { how: 'changed' | 'reset'; at: string };
    }
  | {
      template: 'new-browser';
      to: string;
      /** `ip` and `endLink` are absent from notices queued before sessions could be ended. */
      data: { at: string; browser: string; companyName: string; ip?: string; endLink?: string };
    }
  | {
      template: 'consent-status';
      to: string;
      data: {
        at: string;
        consentId: string;
        partnerName: string;
        previousStatus: string;
        status: string;
        companyName: string;
      };
    }
  | {
      template: 'receipt';
      to: string;
      data: {
        orderId: string;
        invoiceNumber: string;
        planName: string;
        totalPaise: number;
        paidAt: string;
        companyName: string;
      };
    }
  | { template: 'credit-note'; to: string; data: CreditNoteMailData }
  | { template: 'two-factor-changed'; to: string; data: TwoFactorMailData }
  | { template: 'privacy'; to: string; data: PrivacyMailData }
  | { template: 'dead-letter-digest'; to: string; data: DeadLetterDigestData };

export type MailTemplate = MailRequest['template'];
type DataOf<T extends MailTemplate> = Extract<MailRequest, { template: T }>['data'];

const lines = (...parts: string[]) => parts.join('\n');
const when = (iso: string) => `${customerDateTime(new Date(iso))} (India time)`;

export const CODE_MAIL_SUBJECT = 'Your verification code';
export const RESET_MAIL_SUBJECT = 'Reset your password';
export const PASSWORD_CHANGED_SUBJECT = 'Your password was changed';
export const NEW_BROWSER_SUBJECT = 'New sign-in to your portal account';
export const CONSENT_STATUS_SUBJECT = 'A banking consent changed status';
export const receiptSubject = (invoiceNumber: string) => `Your invoice ${invoiceNumber}`;

// The text part holds exactly one 6-digit number: people and tests look for it there.
export async function signInCodeMail(
  { code }: DataOf<'sign-in-code'>,
  ctx: MailContext,
): Promise<RenderedMail> {
  const enter = 'Enter it in the portal within 10 minutes to finish signing in.';
  const notYou = 'If you did not try to sign in, change your password at once.';
  return {
    subject: CODE_MAIL_SUBJECT,
    text: lines(`Your verification code is ${code}`, '', enter, notYou),
    html: await renderLayout({
      subject: CODE_MAIL_SUBJECT,
      // as banks do: a phone's notification shows the code without the mail being opened
      preview: `${code} is your verification code. ${enter}`,
      heading: CODE_MAIL_SUBJECT,
      paragraphs: ['Your verification code is'],
      code,
      notes: [enter, notYou],
      publicUrl: ctx.publicUrl,
    }),
  };
}

export async function passwordResetLinkMail(
  { link }: DataOf<'password-reset-link'>,
  ctx: MailContext,
): Promise<RenderedMail> {
  const asked = 'Someone asked to reset the password of your portal account.';
  const once = 'The link works once and for 30 minutes. If you did not ask, ignore this mail.';
  return {
    subject: RESET_MAIL_SUBJECT,
    text: lines(asked, '', `Set a new password here: ${link}`, '', once),
    html: await renderLayout({
      subject: RESET_MAIL_SUBJECT,
      preview: `${asked} ${once}`,
      heading: RESET_MAIL_SUBJECT,
      paragraphs: [asked],
      action: { label: 'Set a new password', url: link },
      notes: [once],
      publicUrl: ctx.publicUrl,
    }),
  };
}

export async function passwordChangedMail(
  { how, at }: DataOf<'password-changed'>,
  ctx: MailContext,
): Promise<RenderedMail> {
  const what =
    how === 'changed'
      ? 'The password of your portal account was just changed. Other signed-in browsers were signed out.'
      : 'The password of your portal account was just reset. Every signed-in browser was signed out.';
  const notYou =
    'If this was not you, reset your password at once with "Forgot password?" on the sign-in screen.';
  return {
    subject: PASSWORD_CHANGED_SUBJECT,
    text: lines(what, '', notYou),
    html: await renderLayout({
      subject: PASSWORD_CHANGED_SUBJECT,
      preview: what,
      heading: PASSWORD_CHANGED_SUBJECT,
      paragraphs: [what],
      facts: [
        ['When', when(at)],
        ['What', how === 'changed' ? 'Password changed' : 'Password reset by e-mail link'],
      ],
      notes: [notYou],
      action: { label: 'Reset your password', url: portalUrl(ctx.publicUrl, '/reset-password') },
      publicUrl: ctx.publicUrl,
    }),
  };
}

export async function newBrowserMail(
  { at, browser, companyName, ip, endLink }: DataOf<'new-browser'>,
  ctx: MailContext,
): Promise<RenderedMail> {
  const what = 'Your portal account was signed in to from a browser it has not seen before.';
  const notYou = 'If this was not you, reset your password at once:';
  const reset = portalUrl(ctx.publicUrl, '/reset-password');
  const endIt = 'If this was not you, end that session (the link works once, for 24 hours):';
  return {
    subject: NEW_BROWSER_SUBJECT,
    text: lines(
      what,
      '',
      `When: ${when(at)}`,
      `Browser: ${browser}`,
      ...(ip ? [`Address: ${ip}`] : []),
      '',
      ...(endLink ? [`${endIt} ${endLink}`] : []),
      `${notYou} ${reset}`,
      'If it was you, there is nothing to do.',
    ),
    html: await renderLayout({
      subject: NEW_BROWSER_SUBJECT,
      preview: `${what} ${customerDateTime(new Date(at))}`,
      heading: NEW_BROWSER_SUBJECT,
      greeting: companyName,
      paragraphs: [what],
      facts: [
        ['When', when(at)],
        ['Browser', browser],
        ...(ip ? [['Address', ip] satisfies [string, string]] : []),
      ],
      notes: [
        endLink
          ? 'If it was you, there is nothing to do. If it was not, end that session with the button (the link works once, for 24 hours), then reset your password.'
          : 'If it was you, there is nothing to do. If it was not, reset your password at once.',
        ...(endLink ? [`Reset your password: ${reset}`] : []),
      ],
      action: endLink
        ? { label: 'End that session', url: endLink }
        : { label: 'Reset your password', url: reset },
      publicUrl: ctx.publicUrl,
    }),
  };
}

export async function consentStatusMail(
  data: DataOf<'consent-status'>,
  ctx: MailContext,
): Promise<RenderedMail> {
  const what = `Your banking consent with ${data.partnerName} is now ${data.status}.`;
  const list = portalUrl(ctx.publicUrl, '/consents');
  return {
    subject: CONSENT_STATUS_SUBJECT,
    text: lines(
      what,
      '',
      `When: ${when(data.at)}`,
      `Consent: ${data.consentId}`,
      `Partner: ${data.partnerName}`,
      `Status: ${data.status} (was ${data.previousStatus})`,
      '',
      `See your consents: ${list}`,
    ),
    html: await renderLayout({
      subject: CONSENT_STATUS_SUBJECT,
      preview: what,
      heading: CONSENT_STATUS_SUBJECT,
      greeting: data.companyName,
      paragraphs: [what],
      facts: [
        ['When', when(data.at)],
        ['Consent', data.consentId],
        ['Partner', data.partnerName],
        ['Status', `${data.status} (was ${data.previousStatus})`],
      ],
      action: { label: 'See your consents', url: list },
      publicUrl: ctx.publicUrl,
    }),
  };
}

/** `Invoice-INV-2026-27-000001.pdf`: the invoice number, safe as a file name. */
export const invoiceFileName = (invoiceNumber: string) =>
  `Invoice-${invoiceNumber.replace(/[^A-Za-z0-9-]+/g, '-')}.pdf`;

export async function receiptMail(
  data: DataOf<'receipt'>,
  pdf: Buffer,
  ctx: MailContext,
): Promise<RenderedMail> {
  const subject = receiptSubject(data.invoiceNumber);
  const order = orderRef(data.orderId);
  const what = `Thank you for your payment of ${formatPaise(data.totalPaise)} for the ${data.planName} plan (order ${order}).`;
  const attached = `Your GST tax invoice ${data.invoiceNumber} is attached as a PDF.`;
  const history = portalUrl(ctx.publicUrl, '/orders');
  return {
    subject,
    text: lines(
      what,
      attached,
      '',
      `When: ${when(data.paidAt)}`,
      `Order: ${order}`,
      `Invoice: ${data.invoiceNumber}`,
      `Amount: ${formatPaise(data.totalPaise)}`,
      '',
      `Your orders and invoices: ${history}`,
    ),
    html: await renderLayout({
      subject,
      preview: `${what} ${attached}`,
      heading: 'Payment received',
      greeting: data.companyName,
      paragraphs: [what, attached],
      facts: [
        ['When', when(data.paidAt)],
        ['Order', order],
        ['Plan', data.planName],
        ['Invoice', data.invoiceNumber],
        ['Amount', formatPaise(data.totalPaise)],
      ],
      action: { label: 'See your orders', url: history },
      publicUrl: ctx.publicUrl,
    }),
    attachments: [
      {
        filename: invoiceFileName(data.invoiceNumber),
        content: pdf,
        contentType: 'application/pdf',
      },
    ],
  };
}
