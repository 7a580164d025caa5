import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../users/schema';

/** A subscription plan the portal offers; retired plans are no longer offered. */
export const plans = pgTable('plans', {
  id: uuid().primaryKey().defaultRandom(),
  planName: text().notNull(),
  /** 'Single' or 'Multi'. */
  planType: text().notNull(),
  noOfCompany: integer().notNull(),
  durationDays: integer().notNull(),
  /** Base price before GST and handling, in paise. */
  amountPaise: bigint({ mode: 'number' }).notNull(),
  retiredAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
export type PlanRow = typeof plans.$inferSelect;

/** A paid plan on a customer's account, from `startsAt` (inclusive) to `endsAt` (exclusive). */
export const customerPlans = pgTable(
  'customer_plans',
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    planId: uuid()
      .notNull()
      .references(() => plans.id),
    /** The order that paid for it; one activation per order. */
    orderId: uuid().notNull().unique(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customer_plans_customer_ends_idx').on(t.customerId, t.endsAt)],
);
