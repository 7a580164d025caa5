import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../users/schema';

/**
 * Each reminder sent, by customer, subject (a plan's end or a consent's expiry, with the date it
 * is about) and threshold in days. Inserted in the transaction that queues the mail and records
 * the bell's event, so a reminder goes out once however many runs of the job see it due.
 */
export const remindersSent = pgTable(
  'reminders_sent',
  {
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    subject: text().notNull(),
    thresholdDays: integer().notNull(),
    sentAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.subject, t.thresholdDays] })],
);
