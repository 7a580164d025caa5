import type { Mailer } from '../../apps/server/src/adapters/mail.ts';

/**
 * Mail to an address at this domain is refused by the suite's portal, as a mail server refuses a
 * mailbox, so that a test can watch a customer whose code cannot be sent while every other test's
 * mail goes as usual.
 */
export const REFUSED_MAIL_DOMAIN = 'refused.acme.example';

/** `mailer`, except that it refuses every mail to REFUSED_MAIL_DOMAIN. */
export function refusingMailer(mailer: Mailer): Mailer {
  return {
    async send(message) {
      if (message.to.toLowerCase().endsWith(`@${REFUSED_MAIL_DOMAIN}`)) {
        throw new Error('550 5.1.1 Mailbox unavailable (refused by the end-to-end suite)');
      }
      await mailer.send(message);
    },
    close: () => mailer.close(),
  };
}
