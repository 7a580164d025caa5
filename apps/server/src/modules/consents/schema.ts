import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { customers } from '../users/schema';
import { partners } from '../partners/schema';

/** A banking-API consent a partner asked for, as the portal last heard of it from the bank. */
export const consents = pgTable(
  'consents',
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    partnerRef: uuid()
      .notNull()
      .references(() => partners.id, { onDelete: 'restrict' }),
    /** The bank's ConsentId. */
    consentId: text().notNull().unique(),
    /** Pending, Approved, Rejected or Expired (docs/decisions/010-consent-status-mapping.md). */
    status: text().notNull(),
    /**
     * What the bank last said: AwaitingAuthorisation, Authorised, Paused, Rejected or Revoked. An
     * Approved consent the bank holds Paused is shown paused (decision 077).
     */
    providerStatus: text().notNull(),
    permissions: jsonb().$type<string[]>().notNull(),
    netBankingUserId: text(),
    /** File-store key of the partner's document, when one came with the request. */
    documentKey: text(),
    /** AES-256-GCM, bound to this row (lib/encryption.ts); never logged, never sent to partners. */
    accessTokenEnc: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenEnc: text(),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    /** The bank's ExpirationDateTime. */
    expiresAt: timestamp({ withTimezone: true }),
    /** The bank's CreationDateTime and StatusUpdateDateTime. */
    providerCreatedAt: timestamp({ withTimezone: true }).notNull(),
    providerStatusUpdatedAt: timestamp({ withTimezone: true }).notNull(),
    /** The partner's own reference, so that a repeated request makes no second consent. */
    partnerRequestId: text(),
    /** Why the partner reads the data, in its words; null when it did not say. */
    purpose: text(),
    /** The period of transactions the partner may read (TransactionFrom/ToDateTime). */
    transactionFrom: timestamp({ withTimezone: true }),
    transactionTo: timestamp({ withTimezone: true }),
    /** How many reads a day the partner may make; Open Banking's 4 unless it asked otherwise. */
    fetchesPerDay: integer().notNull().default(4),
    /** How many days the partner may keep what it reads (the bank's DataLife); null: not said. */
    dataLifeDays: integer(),
    /** The accounts the consent covers, masked (XXXX1234): the full numbers are never stored. */
    accounts: jsonb().$type<string[]>().notNull().default([]),
    /** Set when the customer deleted the consent: it stays, Revoked, in the History view. */
    revokedAt: timestamp({ withTimezone: true }),
    /** When the customer asked the partner for a fresh consent (decision 041). */
    reconnectRequestedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('consents_customer_created_idx').on(t.customerId, t.createdAt, t.id),
    index('consents_customer_status_created_idx').on(t.customerId, t.status, t.createdAt, t.id),
    index('consents_status_expires_idx').on(t.status, t.expiresAt),
    // the live consents past their expiry time that the sweep has not stored yet: read as Expired
    // (the status too, so that they are counted by status on the index alone)
    index('consents_customer_due_idx')
      .on(t.customerId, t.expiresAt, t.status)
      .where(sql`${t.status} in ('Pending', 'Approved')`),
    index('consents_partner_idx').on(t.partnerRef),
    // the History view: past consents by keyset, on this index alone
    index('consents_customer_past_idx')
      .on(t.customerId, t.createdAt, t.id)
      .where(sql`${t.status} in ('Expired', 'Revoked')`),
    // a partner's open reconnect requests, oldest first
    index('consents_partner_reconnect_idx')
      .on(t.partnerRef, t.reconnectRequestedAt, t.id)
      .where(sql`${t.reconnectRequestedAt} is not null`),
    uniqueIndex('consents_partner_request_idx').on(t.partnerRef, t.partnerRequestId),
  ],
);

export type ConsentRow = typeof consents.$inferSelect;

/**
 * A partner's reads under each consent: the last one and the count of the current day, in a row
 * of their own so that a read writes a few bytes and none of the consents row's indexes.
 */
export const consentAccesses = pgTable('consent_accesses', {
  consentRef: uuid()
    .primaryKey()
    .references(() => consents.id, { onDelete: 'cascade' }),
  lastAccessedAt: timestamp({ withTimezone: true }).notNull(),
  /** The first read of the current 24 hours, and the reads made since. */
  windowStartedAt: timestamp({ withTimezone: true }).notNull(),
  fetchesInWindow: integer().notNull(),
  /** Every read the bank allowed under the consent, for the customer's details. */
  fetchesTotal: integer().notNull().default(0),
});

/** A table of how many rows each customer has in each status, kept by a trigger (decision 028). */
const countsPerCustomer = (name: string) =>
  pgTable(
    name,
    {
      customerId: uuid()
        .notNull()
        .references(() => customers.id, { onDelete: 'cascade' }),
      status: text().notNull(),
      n: integer().notNull(),
    },
    (t) => [primaryKey({ columns: [t.customerId, t.status] })],
  );

/**
 * How many consents each customer has in each stored status, kept by a trigger on `consents` in
 * the same transaction as every write (docs/decisions/028-keyset-pages-and-counters.md).
 */
export const consentCounts = countsPerCustomer('consent_counts');

/** How many orders each customer has in each payment status, kept by a trigger on `orders`. */
export const orderCounts = countsPerCustomer('order_counts');
