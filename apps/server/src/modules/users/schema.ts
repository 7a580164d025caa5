import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A business customer: the only kind of user the portal has. */
export const customers = pgTable('customers', {
  id: uuid().primaryKey().defaultRandom(),
  /** Stored lower-cased, so that look-ups are exact. */
  email: text().notNull().unique(),
  mobile: text().notNull(),
  gstNo: text().notNull(),
  tallySerialNo: text().notNull(),
  passwordHash: text().notNull(),
  companyName: text().notNull(),
  customerType: text().notNull().default('Customer'),
  category: text(),
  tallyVersion: text(),
  /** Any password change or reset bumps this; reset links issued before it are void. */
  passwordChangedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type Customer = typeof customers.$inferSelect;
export type NewCustomer = typeof customers.$inferInsert;
