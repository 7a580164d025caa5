import type { Mailer } from '../../adapters/mail';

export const CODE_MAIL_SUBJECT = 'Your verification code';
export const RESET_MAIL_SUBJECT = 'Reset your password';
export const PASSWORD_CHANGED_SUBJECT = 'Your password was changed';

// The code mail must hold exactly one 6-digit number: people and tests look for it.
export const sendCodeMail = (mailer: Mailer, to: string, code: string) =>
  mailer.send({
    to,
    subject: CODE_MAIL_SUBJECT,
    text: [
      `Your verification code is ${code}`,
      '',
      'Enter it in the portal within 10 minutes to finish signing in.',
      'If you did not try to sign in, change your password at once.',
    ].join('\n'),
  });

export const sendResetMail = (mailer: Mailer, to: string, link: string) =>
  mailer.send({
    to,
    subject: RESET_MAIL_SUBJECT,
    text: [
      'Someone asked to reset the password of your portal account.',
      '',
      `Set a new password here: ${link}`,
      '',
      'The link works once and for 30 minutes. If you did not ask, ignore this mail.',
    ].join('\n'),
  });

export const sendPasswordChangedMail = (mailer: Mailer, to: string, how: 'changed' | 'reset') =>
  mailer.send({
    to,
    subject: PASSWORD_CHANGED_SUBJECT,
    text: [
      how === 'changed'
        ? 'The password of your portal account was just changed. Other signed-in browsers were signed out.'
        : 'The password of your portal account was just reset. Every signed-in browser was signed out.',
      '',
      'If this was not you, reset your password at once with "Forgot password?" on the sign-in screen.',
    ].join('\n'),
  });
