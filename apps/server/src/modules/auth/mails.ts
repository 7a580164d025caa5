import type { Executor } from '../../db/client';
import { enqueueMail } from '../mail/delivery';
import { sha256 } from './secrets';

export { CODE_MAIL_SUBJECT, PASSWORD_CHANGED_SUBJECT, RESET_MAIL_SUBJECT } from '../mail/templates';

// Each is queued in the transaction of the change it tells of; the mail worker sends it.
type MailDeps = Parameters<typeof enqueueMail>[1];

/**
 * The queue's id of the mail of a challenge's code number `resends` (0 for the first), made from
 * both, so that the code step can ask after its mail with nothing stored beside the challenge.
 */
export function codeMailJobId(challengeId: string, resends: number): string {
  const hex = sha256(`sign-in-code-mail:${challengeId}:${resends}`);
  // a UUID of version 8 (RFC 9562: the bits are the maker's own) with its variant bits
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const queueCodeMail = (
  tx: Executor,
  deps: MailDeps,
  to: string,
  code: string,
  jobId: string,
) => enqueueMail(tx, deps, { template: 'sign-in-code', to, data: { code } }, { jobId });

export const queueResetMail = (tx: Executor, deps: MailDeps, to: string, link: string) =>
  enqueueMail(tx, deps, { template: 'password-reset-link', to, data: { link } });

export const queuePasswordNotice = (
  tx: Executor,
  deps: MailDeps,
  to: string,
  how: 'changed' | 'reset',
  at: Date,
) =>
  enqueueMail(tx, deps, { template: 'password-changed', to, data: { how, at: at.toISOString() } });
