import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The built-in sandbox bank's own records. It is a stand-in for an outside system: nothing
 * in the portal reads this table, only the bank's HTTP contract. Being a test bank, it keeps
 * the tokens it issues readable so that it can answer status queries with them.
 */
export const sandboxBankConsents = pgTable(
  'sandbox_bank_consents',
  {
    consentId: text().primaryKey(),
    /** The API client (the portal) that asked for the consent. */
    clientId: text().notNull(),
    /** AwaitingAuthorisation, Authorised, Paused, Rejected or Revoked. */
    status: text().notNull(),
    permissions: jsonb().$type<string[]>().notNull(),
    expirationDateTime: timestamp({ withTimezone: true }).notNull(),
    creationDateTime: timestamp({ withTimezone: true }).notNull(),
    statusUpdateDateTime: timestamp({ withTimezone: true }).notNull(),
    accessToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshToken: text(),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    /** The transactions the client may read (TransactionFrom/ToDateTime); null is open-ended. */
    transactionFromDateTime: timestamp({ withTimezone: true }),
    transactionToDateTime: timestamp({ withTimezone: true }),
    /** Why the client reads, as it said (Data.Purpose). */
    purpose: text(),
    /** Reads a day the client may make (Data.Frequency); Open Banking's 4 unless it asked. */
    fetchesPerDay: integer().notNull().default(4),
    /** Days the client may keep what it reads (Data.DataLife); null when it did not say. */
    dataLifeDays: integer(),
    /** The first allowed read of the current 24 hours, and the allowed reads since. */
    windowStartedAt: timestamp({ withTimezone: true }),
    fetchesInWindow: integer().notNull().default(0),
  },
  (t) => [index('sandbox_bank_consents_status_created_idx').on(t.status, t.creationDateTime)],
);

export type SandboxBankConsent = typeof sandboxBankConsents.$inferSelect;

/** Every read of data under a consent, allowed or refused: the bank's own access record. */
export const sandboxBankAccesses = pgTable(
  'sandbox_bank_accesses',
  {
    id: uuid().primaryKey().defaultRandom(),
    consentId: text()
      .notNull()
      .references(() => sandboxBankConsents.consentId, { onDelete: 'cascade' }),
    accessedAt: timestamp({ withTimezone: true }).notNull(),
    /** What was read: accounts or transactions. */
    resource: text().notNull(),
    /** The period of transactions asked for; null for accounts. */
    fromDateTime: timestamp({ withTimezone: true }),
    toDateTime: timestamp({ withTimezone: true }),
    /** Allowed, or the reason of the refusal (see READ_OUTCOMES in service.ts). */
    outcome: text().notNull(),
  },
  (t) => [index('sandbox_bank_accesses_consent_at_idx').on(t.consentId, t.accessedAt)],
);

export type SandboxBankAccess = typeof sandboxBankAccesses.$inferSelect;
