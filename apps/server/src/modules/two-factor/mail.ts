import type { MailContext, RenderedMail } from '../mail/rendered';
import { securityChangeMail } from '../mail/security-notice';

/** What the notice of the authenticator app turned on or off is made from. */
export interface TwoFactorMailData {
  on: boolean;
  at: string;
  companyName: string;
  /** Turned off while a passkey stays: sign-in asks for the passkey, not an e-mailed code. */
  passkeyStays?: boolean;
}

declare module '../mail/templates' {
  interface MailTemplateData {
    'two-factor-changed': TwoFactorMailData;
  }
}

export const twoFactorSubject = (on: boolean) =>
  on ? 'Authenticator app turned on' : 'Authenticator app turned off';

export async function twoFactorMail(
  { on, at, companyName, passkeyStays }: TwoFactorMailData,
  ctx: MailContext,
): Promise<RenderedMail> {
  const subject = twoFactorSubject(on);
  const what = on
    ? 'Signing in to your portal account now asks for a code from your authenticator app instead of a code by e-mail.'
    : `Signing in to your portal account no longer asks for a code from your authenticator app: ${
        passkeyStays ? 'it asks for your passkey.' : 'the code comes by e-mail again.'
      }`;
  const notYou =
    'If this was not you, reset your password at once with "Forgot password?" on the sign-in screen.';
  return securityChangeMail({ subject, what, notYou, at, companyName }, ctx);
}
