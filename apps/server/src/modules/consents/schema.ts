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
    /** What the bank last said: AwaitingAuthorisation, Authorised, Rejected or Revoked. */
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
    uniqueIndex('consents_partner_request_idx').on(t.partnerRef, t.partnerRequestId),
  ],
);

export type ConsentRow = typeof consents.$inferSelect;

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
