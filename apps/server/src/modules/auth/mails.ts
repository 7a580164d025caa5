import type { AppDeps } from '../../deps';
import { passwordChangedMail, passwordResetLinkMail, signInCodeMail } from '../mail/templates';

export { CODE_MAIL_SUBJECT, PASSWORD_CHANGED_SUBJECT, RESET_MAIL_SUBJECT } from '../mail/templates';

type MailDeps = Pick<AppDeps, 'mailer' | 'config'>;

const context = (deps: MailDeps) => ({ publicUrl: deps.config.PUBLIC_URL });

export const sendCodeMail = async (deps: MailDeps, to: string, code: string) =>
  deps.mailer.send({ to, ...(await signInCodeMail({ code }, context(deps))) });

export const sendResetMail = async (deps: MailDeps, to: string, link: string) =>
  deps.mailer.send({ to, ...(await passwordResetLinkMail({ link }, context(deps))) });

export const sendPasswordChangedMail = async (
  deps: MailDeps,
  to: string,
  how: 'changed' | 'reset',
  at: Date,
) =>
  deps.mailer.send({
    to,
    ...(await passwordChangedMail({ how, at: at.toISOString() }, context(deps))),
  });
