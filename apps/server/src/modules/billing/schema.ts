import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../users/schema';

/** A customer's billing address and GSTIN; orders copy it when they are created. */
export const billingDetails = pgTable('billing_details', {
  customerId: uuid()
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  gstin: text().notNull(),
  addressLine1: text().notNull(),
  addressLine2: text(),
  city: text().notNull(),
  /** A GST state code (contract GST_STATES); the GSTIN's first two digits. */
  stateCode: text().notNull(),
  pin: text().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
export type BillingDetailsRow = typeof billingDetails.$inferSelect;
