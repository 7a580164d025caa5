import { customerDateTime } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { indiaTime as when, portalUrl } from './format';
import { renderLayout } from './layout';
import type { DeadLetterDigestData } from './dead-letter-digest';
import type { MailContext, RenderedMail } from './rendered';

export type { MailAttachment, MailContext, RenderedMail } from './rendered';

/**
 * Every mail the portal sends: each template's data, by name. The data is plain JSON (times as
 * ISO strings), because it waits in the job queue until a worker sends it. A feature whose mail
 * is its own adds its template from its mail file, by declaration merging, so that mail imports
 * no feature.
 */
export interface MailTemplateData {
  'sign-in-code': { code: string };
  'password-reset-link': { link: string };
  'password-changed': { how: 'changed' | 'reset'; at: string };
  /** `ip` and `endLink` are absent from notices queued before sessions could be ended. */
  'new-browser': {
    at: string;
    browser: string;
    companyName: string;
    ip?: string;
    endLink?: string;
  };
  'consent-status': {
    at: string;
    consentId: string;
    partnerName: string;
    previousStatus: string;
    status: string;
    companyName: string;
  };
  'dead-letter-digest': DeadLetterDigestData;
}

export type MailTemplate = keyof MailTemplateData;

/** A mail to send: a template, its data and the address. */
export type MailRequest<T extends MailTemplate = MailTemplate> = {
  [K in T]: { template: K; to: string; data: MailTemplateData[K] };
}[T];

/** Makes a template's mail; one with an attachment reads it from the file store. */
export type MailRenderer<T extends MailTemplate> = (
  data: MailTemplateData[T],
  ctx: MailContext,
  deps: Pick<AppDeps, 'files'>,
) => Promise<RenderedMail>;

/** Every template's renderer: put together at composition (`src/mail-templates.ts`). */
export type MailTemplates = { [T in MailTemplate]: MailRenderer<T> };

/**
 * The renderer of a mail that carries a stored PDF. A PDF not (yet) stored throws, so that the
 * job is tried again: the file store may be briefly away.
 */
export function withStoredPdf<T extends MailTemplate>(
  fileKeyOf: (data: MailTemplateData[T]) => string,
  render: (data: MailTemplateData[T], pdf: Buffer, ctx: MailContext) => Promise<RenderedMail>,
): MailRenderer<T> {
  return async (data, ctx, { files }) => {
    const key = fileKeyOf(data);
    const pdf = await files.read(key);
    if (!pdf) throw new Error(`the PDF ${key} is not stored`);
    return render(data, pdf, ctx);
  };
}

type DataOf<T extends MailTemplate> = MailTemplateData[T];

const lines = (...parts: string[]) => parts.join('\n');

export const CODE_MAIL_SUBJECT = 'Your verification code';
export const RESET_MAIL_SUBJECT = 'Reset your password';
export const PASSWORD_CHANGED_SUBJECT = 'Your password was changed';
export const NEW_BROWSER_SUBJECT = 'New sign-in to your portal account';
export const CONSENT_STATUS_SUBJECT = 'A banking consent changed status';

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
