import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/** Plans of the built-in sandbox gateway: what is charged, and how often. */
export const sandboxPlans = pgTable('sandbox_plans', {
  id: text().primaryKey(),
  /** The plan's item, which Razorpay shows with an id of its own. */
  itemId: text().notNull(),
  /** daily, weekly, monthly or yearly; one cycle is `interval` of them */
  period: text().notNull(),
  interval: integer().notNull(),
  name: text().notNull(),
  amount: bigint({ mode: 'number' }).notNull(),
  currency: text().notNull(),
  description: text(),
  notes: jsonb().$type<Record<string, string>>().notNull().default({}),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Subscriptions of the built-in sandbox gateway (what Razorpay would hold). */
export const sandboxSubscriptions = pgTable(
  'sandbox_subscriptions',
  {
    id: text().primaryKey(),
    planId: text()
      .notNull()
      .references(() => sandboxPlans.id),
    /** created, authenticated, active, pending, halted, paused, cancelled or completed */
    status: text().notNull(),
    totalCount: integer().notNull(),
    quantity: integer().notNull(),
    /** The API's customer_notify: the gateway, not the merchant, tells the customer of charges. */
    gatewayNotifies: boolean().notNull(),
    /** The first cycle's start: as asked for, else set when the customer authorises. */
    startAt: timestamp({ withTimezone: true }),
    expireBy: timestamp({ withTimezone: true }),
    notes: jsonb().$type<Record<string, string>>().notNull().default({}),
    /** Set by the authorisation: upi, emandate or card. */
    paymentMethod: text(),
    /** The customer's id at the gateway (cust_…), which is not the portal's customer id. */
    gatewayCustomerId: text(),
    paidCount: integer().notNull().default(0),
    /** Failed attempts since the last success: failed authorisations, then failed charges. */
    authAttempts: integer().notNull().default(0),
    /** Cancelled at the end of the current cycle, which Razorpay's entity does not show. */
    cancelAtCycleEnd: boolean().notNull().default(false),
    pausedAt: timestamp({ withTimezone: true }),
    endedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sandbox_subscriptions_plan_idx').on(t.planId, t.createdAt)],
);

/**
 * The invoices of the sandbox's subscriptions, one per charge attempt as on Razorpay: paid with
 * its payment, or issued when the attempt failed. `GET /v1/invoices?subscription_id=` lists them.
 */
export const sandboxSubscriptionInvoices = pgTable(
  'sandbox_subscription_invoices',
  {
    id: text().primaryKey(),
    subscriptionId: text()
      .notNull()
      .references(() => sandboxSubscriptions.id),
    /** The payment of the attempt (pay_…), as its webhooks carried it. */
    paymentId: text().notNull().unique(),
    amount: bigint({ mode: 'number' }).notNull(),
    /** paid, or issued when the attempt failed */
    status: text().notNull(),
    billingStart: timestamp({ withTimezone: true }),
    billingEnd: timestamp({ withTimezone: true }),
    paidAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sandbox_subscription_invoices_subscription_idx').on(t.subscriptionId, t.createdAt),
  ],
);
