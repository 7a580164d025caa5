import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Mail handed to the mail server, by the Message-ID fixed when it was queued: a job run again
 * (a retry after the send, an operator's retry of dead letters) finds it here and sends nothing.
 */
export const mailDeliveries = pgTable('mail_deliveries', {
  messageId: text().primaryKey(),
  deliveredAt: timestamp({ withTimezone: true }).notNull(),
});
