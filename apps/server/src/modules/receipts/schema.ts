import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orders } from '../orders/schema';

/** The last invoice number used in each financial year ('2026-27'); locked while one is taken. */
export const invoiceCounters = pgTable('invoice_counters', {
  financialYear: text().primaryKey(),
  lastNumber: integer().notNull(),
});

/** The GST tax invoice of a completed order. */
export const receipts = pgTable('receipts', {
  id: uuid().primaryKey().defaultRandom(),
  orderId: uuid()
    .notNull()
    .unique()
    .references(() => orders.id, { onDelete: 'cascade' }),
  invoiceNumber: text().notNull().unique(),
  fileKey: text().notNull(),
  issuedAt: timestamp({ withTimezone: true }).notNull(),
});
