// Every mail's renderer, by template. Mail delivers what these make and imports none of the
// features that write them (decision 066): they are put together here, at composition.
import { creditNoteMailTemplate } from './modules/invoices/credit-note-mail';
import { receiptMailTemplate } from './modules/invoices/invoice-mail';
import { deadLetterDigestMail } from './modules/mail/dead-letter-digest';
import {
  consentStatusMail,
  newBrowserMail,
  passwordChangedMail,
  passwordResetLinkMail,
  signInCodeMail,
  type MailTemplates,
} from './modules/mail/templates';
import { passkeyMail } from './modules/passkeys/mail';
import { privacyMail } from './modules/privacy/mail';
import { reminderMail } from './modules/reminders/mail';
import { autoRenewalMail } from './modules/auto-renewal/mail';
import { twoFactorMail } from './modules/two-factor/mail';

export const mailTemplates: MailTemplates = {
  'sign-in-code': signInCodeMail,
  'password-reset-link': passwordResetLinkMail,
  'password-changed': passwordChangedMail,
  'new-browser': newBrowserMail,
  'consent-status': consentStatusMail,
  'dead-letter-digest': deadLetterDigestMail,
  reminder: reminderMail,
  'auto-renewal': autoRenewalMail,
  'two-factor-changed': twoFactorMail,
  'passkey-changed': passkeyMail,
  privacy: privacyMail,
  receipt: receiptMailTemplate,
  'credit-note': creditNoteMailTemplate,
};
