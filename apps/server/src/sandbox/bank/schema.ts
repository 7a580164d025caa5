import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
    /** AwaitingAuthorisation, Authorised, Rejected or Revoked. */
    status: text().notNull(),
    permissions: jsonb().$type<string[]>().notNull(),
    expirationDateTime: timestamp({ withTimezone: true }).notNull(),
    creationDateTime: timestamp({ withTimezone: true }).notNull(),
    statusUpdateDateTime: timestamp({ withTimezone: true }).notNull(),
    accessToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshToken: text(),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('sandbox_bank_consents_status_created_idx').on(t.status, t.creationDateTime)],
);

export type SandboxBankConsent = typeof sandboxBankConsents.$inferSelect;
