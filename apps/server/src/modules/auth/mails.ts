import type { Executor } from '../../db/client';
import { enqueueMail } from '../mail/delivery';

export { CODE_MAIL_SUBJECT, PASSWORD_CHANGED_SUBJECT, RESET_MAIL_SUBJECT } from '../mail/templates';

// Each is queued in the transaction of the change it tells of; the mail worker sends it.
type MailDeps = Parameters<typeof enqueueMail>[1];

export const queueCodeMail = (tx: Executor, deps: MailDeps, to: string, code: string) =>
  enqueueMail(tx, deps, { template: 'sign-in-code', to, data: { code } });

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
