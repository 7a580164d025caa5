import type { MailContext, RenderedMail } from '../mail/rendered';
import { securityChangeMail } from '../mail/security-notice';

/** What the notice of a passkey added or removed is made from. */
export interface PasskeyMailData {
  added: boolean;
  /** The name the customer gave it. */
  name: string;
  at: string;
  companyName: string;
}

declare module '../mail/templates' {
  interface MailTemplateData {
    'passkey-changed': PasskeyMailData;
  }
}

export const passkeySubject = (added: boolean) => (added ? 'Passkey added' : 'Passkey removed');

export async function passkeyMail(
  { added, name, at, companyName }: PasskeyMailData,
  ctx: MailContext,
): Promise<RenderedMail> {
  const subject = passkeySubject(added);
  const what = added
    ? `A passkey named "${name}" was added to your portal account. It can now finish a sign-in in place of a code.`
    : `The passkey named "${name}" was removed from your portal account. It can no longer be used to sign in.`;
  const notYou =
    'If this was not you, reset your password at once with "Forgot password?" on the sign-in screen, then review your passkeys.';
  return securityChangeMail({ subject, what, notYou, at, companyName }, ctx);
}
