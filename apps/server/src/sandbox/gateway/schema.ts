import { bigint, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Payment links of the built-in sandbox gateway (what Razorpay would hold). */
export const sandboxPaymentLinks = pgTable('sandbox_payment_links', {
  id: text().primaryKey(),
  referenceId: text().notNull(),
  amount: bigint({ mode: 'number' }).notNull(),
  currency: text().notNull(),
  description: text().notNull(),
  customer: jsonb().$type<{ name?: string; email?: string; contact?: string }>().notNull(),
  notes: jsonb().$type<Record<string, string>>().notNull().default({}),
  callbackUrl: text().notNull(),
  /** created, paid, cancelled or expired */
  status: text().notNull(),
  /** Payments tried on the link: the last one decides the callback. */
  payments: jsonb()
    .$type<{ payment_id: string; status: string; amount: number; created_at: number }[]>()
    .notNull()
    .default([]),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
