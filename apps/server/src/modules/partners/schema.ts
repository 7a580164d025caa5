import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A company whose software (the accounting plugin) asks customers' banks for consents. */
export const partners = pgTable('partners', {
  id: uuid().primaryKey().defaultRandom(),
  /** The public id shown to customers, for example PTN-7K2M9Q4X. */
  partnerId: text().notNull().unique(),
  name: text().notNull(),
  /** SHA-256 of the API key; the key itself is shown once, when it is made. */
  apiKeyHash: text().notNull().unique(),
  /** The key's first characters, so an operator can tell keys apart. */
  apiKeyPrefix: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp({ withTimezone: true }),
  /** Set: the key is refused; the partner's consents stay. */
  revokedAt: timestamp({ withTimezone: true }),
});

export type Partner = typeof partners.$inferSelect;
