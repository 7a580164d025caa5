import { z } from 'zod';
import { VERIFICATION_CODE_LENGTH } from './constants';
import { text } from './primitives';

/** The customer's own data (India's DPDP Act, 2023): closing the account, changing the e-mail. */
export const privacyPaths = {
  closeAccountCode: '/api/privacy/close-account/code',
  closeAccount: '/api/privacy/close-account',
  emailChangeCode: '/api/privacy/email/code',
  emailChange: '/api/privacy/email',
} as const;

export const privacyMessages = {
  codeSent: 'We sent a 6-digit code to your e-mail address.',
  newEmailCodeSent: 'We sent a 6-digit code to the new address. Enter it to confirm the change.',
  closed:
    'Your account is closed. Your invoices and orders are kept for 72 months, as GST law requires.',
  emailChanged: 'Your e-mail address was changed.',
  wrongPassword: 'The password is not correct.',
  wrongCode: 'The code is not correct, or it has expired. Ask for a new code.',
  tooManyTries: 'Too many wrong codes. Ask for a new code.',
  noCode: 'Ask for a code first.',
  waitForCode: 'A code was sent less than a minute ago. Please wait before asking again.',
  emailTaken: 'This e-mail address is already used by another account.',
  sameEmail: 'This is already your e-mail address.',
  alreadyClosed: 'This account is already closed.',
} as const;

const PasswordSchema = text({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(256);

const CodeSchema = text({ error: 'Code is required' })
  .trim()
  .min(1, 'Code is required')
  .regex(
    new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`),
    'Enter the 6-digit code from the e-mail',
  );

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `POST /api/privacy/close-account`: the password and the e-mailed code. */
export const CloseAccountRequestSchema = z
  .object({ password: PasswordSchema, code: CodeSchema })
  .strict();
export type CloseAccountRequest = z.infer<typeof CloseAccountRequestSchema>;

/** `POST /api/privacy/email/code`: the new address, and the password as a second proof. */
export const EmailChangeCodeRequestSchema = z
  .object({
    newEmail: text({ error: 'Email is required' })
      .trim()
      .toLowerCase()
      .min(1, 'Email is required')
      .max(254, 'Email can be at most 254 characters')
      .regex(EMAIL_PATTERN, 'Invalid email address'),
    password: PasswordSchema,
  })
  .strict();
export type EmailChangeCodeRequest = z.infer<typeof EmailChangeCodeRequestSchema>;

/** `POST /api/privacy/email`: the code sent to the new address. */
export const EmailChangeRequestSchema = z.object({ code: CodeSchema }).strict();
export type EmailChangeRequest = z.infer<typeof EmailChangeRequestSchema>;

export const PrivacyMessageResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});
export type PrivacyMessageResponse = z.infer<typeof PrivacyMessageResponseSchema>;
