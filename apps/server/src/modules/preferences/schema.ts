import { boolean, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../users/schema';

/**
 * Which notices a customer chose to receive. No row means every notice is on; security notices
 * (codes, password changes, new browsers) have no switch at all.
 */
export const notificationPreferences = pgTable('notification_preferences', {
  customerId: uuid()
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  reminders: boolean().notNull().default(true),
  consentChanges: boolean().notNull().default(true),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
});
