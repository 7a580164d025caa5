import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../users/schema';

/** Everything that happens to an account, written in the transaction of the change itself. */
export const activityEvents = pgTable(
  'activity_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** One of ActivityEventType in the contract. */
    type: text().notNull(),
    title: text().notNull(),
    description: text().notNull(),
    /** success, pending or failed: the look the item gets. */
    status: text().notNull(),
    /** Ids of what the event is about (order, consent, plan…), never secrets. */
    details: jsonb().$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activity_events_customer_created_idx').on(t.customerId, t.createdAt, t.id),
    // an event that must be told once (a plan about to end) carries details.once
    uniqueIndex('activity_events_once_idx')
      .on(t.customerId, sql`(${t.details}->>'once')`)
      .where(sql`${t.details} ? 'once'`),
  ],
);

/** Up to when a customer has seen their notifications (the bell's 'last seen' marker). */
export const activitySeen = pgTable('activity_seen', {
  customerId: uuid()
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  lastSeenAt: timestamp({ withTimezone: true }).notNull(),
});
