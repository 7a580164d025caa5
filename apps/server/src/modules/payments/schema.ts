import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every gateway event taken in (webhooks by `x-razorpay-event-id`), so that a redelivery is
 * recognised and changes nothing.
 */
export const paymentEvents = pgTable('payment_events', {
  eventId: text().primaryKey(),
  event: text().notNull(),
  orderId: uuid(),
  payload: jsonb().$type<unknown>().notNull(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
