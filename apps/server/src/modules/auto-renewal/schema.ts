import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { customers } from '../users/schema';
import { plans } from '../plans/schema';
import { orders } from '../purchases/schema';

/**
 * The gateway's plan for each portal plan at each price: a subscription is made on one, and
 * Razorpay's plans cannot change their amount, so a new price is a new gateway plan.
 */
export const gatewayPlans = pgTable(
  'gateway_plans',
  {
    planId: uuid()
      .notNull()
      .references(() => plans.id),
    /** What one cycle charges, GST and handling included. */
    amountPaise: bigint({ mode: 'number' }).notNull(),
    gatewayPlanId: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.planId, t.amountPaise] })],
);

/**
 * A customer's auto-renewal: a subscription at the gateway, and what its webhooks and fetches
 * last said of it. A customer has at most one that has not ended.
 */
export const autoRenewals = pgTable(
  'auto_renewals',
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    planId: uuid()
      .notNull()
      .references(() => plans.id),
    subscriptionId: text().notNull().unique(),
    /** The subscription's status at the gateway (created, authenticated, active, pending...). */
    gatewayStatus: text().notNull(),
    /** upi, emandate or card, once authorised. */
    method: text(),
    /** What each charge takes, GST and handling included. */
    amountPaise: bigint({ mode: 'number' }).notNull(),
    /** The next charge the gateway has scheduled, if any. */
    chargeAt: timestamp({ withTimezone: true }),
    /** The gateway's page to authorise the mandate, or to pay another way after a failure. */
    authoriseUrl: text().notNull(),
    /** Turned off by the customer: cancelled at the end of the cycle. */
    endsAtCycleEnd: boolean().notNull().default(false),
    /**
     * When the gateway's state written here was read: a read begun earlier (a late webhook, a
     * slow fetch) never overwrites one begun later.
     */
    syncedAt: timestamp({ withTimezone: true }).notNull(),
    endedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('auto_renewals_live_customer_key')
      .on(t.customerId)
      .where(sql`ended_at IS NULL`),
    // the pre-debit notices read the charges coming up
    index('auto_renewals_charge_idx')
      .on(t.chargeAt)
      .where(sql`ended_at IS NULL`),
  ],
);
export type AutoRenewalRow = typeof autoRenewals.$inferSelect;

/**
 * Each charge of an auto-renewal, by the gateway's payment id: inserted with the order it pays
 * for, so that a charge told twice (a webhook redelivered, reconciliation racing it) makes one.
 */
export const renewalCharges = pgTable('renewal_charges', {
  paymentId: text().primaryKey(),
  autoRenewalId: uuid()
    .notNull()
    .references(() => autoRenewals.id, { onDelete: 'cascade' }),
  orderId: uuid()
    .notNull()
    .unique()
    .references(() => orders.id, { onDelete: 'cascade' }),
  chargedAt: timestamp({ withTimezone: true }).notNull(),
});
