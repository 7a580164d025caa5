import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every gateway event taken in (webhooks by `x-razorpay-event-id`), so that a redelivery is
 * recognised and changes nothing.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    eventId: text().primaryKey(),
    event: text().notNull(),
    orderId: uuid(),
    payload: jsonb().$type<unknown>().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // closing an account empties its orders' events, the purge deletes them, and the metrics join
  // them to orders: each by order, which without this read the whole table
  (t) => [index('payment_events_order_idx').on(t.orderId)],
);
