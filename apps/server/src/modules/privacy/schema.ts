import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { customers } from '../users/schema';

const at = () => timestamp({ withTimezone: true });

/** A "Download my data" request: prepared by a job, stored, and linked for 24 hours. */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** preparing, ready or failed */
    status: text().notNull(),
    requestedAt: at().notNull(),
    readyAt: at(),
    /** When the link stops working: 24 hours after the file was ready. */
    expiresAt: at(),
  },
  (t) => [
    index('data_exports_customer_idx').on(t.customerId, t.requestedAt),
    // one request at a time: a second insert while one is preparing fails, on either database
    uniqueIndex('data_exports_one_preparing_idx')
      .on(t.customerId)
      .where(sql`${t.status} = 'preparing'`),
  ],
);

/** An e-mailed code for a privacy step: closing the account, or confirming a new address. */
export const privacyCodes = pgTable(
  'privacy_codes',
  {
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** close-account or email-change */
    purpose: text().notNull(),
    /** Keyed hash of the customer, the purpose, the new address and the code. */
    codeHash: text().notNull(),
    /** The address being confirmed (email-change only), lower-cased. */
    newEmail: text(),
    attempts: integer().notNull().default(0),
    expiresAt: at().notNull(),
    createdAt: at().notNull(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.purpose] })],
);

/**
 * A closed account. The customers row stays (invoices and orders refer to it and are kept 72
 * months under section 36 of the CGST Act) but holds a tombstone instead of personal data.
 */
export const accountClosures = pgTable('account_closures', {
  customerId: uuid()
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  closedAt: at().notNull(),
  /** The end of the 72 months the tax records are kept for. */
  keepTaxRecordsUntil: at().notNull(),
});

/**
 * The person a customer named to exercise their data rights on their death or incapacity (DPDP
 * Act 2023, s. 14): one a customer, changed or removed by them.
 */
export const nominees = pgTable('nominees', {
  customerId: uuid()
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  email: text().notNull(),
  /** One of the contract's NOMINEE_RELATIONS. */
  relation: text().notNull(),
  nominatedAt: at().notNull(),
  updatedAt: at().notNull(),
});

/**
 * A grievance to the grievance officer (DPDP Rules, rule 14): acknowledged with its reference
 * at once, to be answered by `respondBy`; `answeredAt` is set when the officer answers.
 */
export const grievances = pgTable(
  'grievances',
  {
    id: uuid().primaryKey().defaultRandom(),
    reference: text().notNull().unique(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** One of the contract's GRIEVANCE_TOPICS. */
    topic: text().notNull(),
    message: text().notNull(),
    submittedAt: at().notNull(),
    respondBy: at().notNull(),
    answeredAt: at(),
    answer: text(),
  },
  (t) => [
    index('grievances_customer_idx').on(t.customerId, t.submittedAt),
    // the open ones, by when they are due: what the overdue count and the officer's list read
    index('grievances_open_idx')
      .on(t.respondBy)
      .where(sql`${t.answeredAt} IS NULL`),
  ],
);

/**
 * A request to correct a detail the customer cannot change themselves (DPDP Act 2023, s. 12;
 * decision 078): the operator corrects it or declines, once, with a note.
 */
export const correctionRequests = pgTable(
  'correction_requests',
  {
    id: uuid().primaryKey().defaultRandom(),
    reference: text().notNull().unique(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** One of the contract's CORRECTABLE_FIELDS. */
    field: text().notNull(),
    currentValue: text().notNull(),
    requestedValue: text().notNull(),
    reason: text(),
    submittedAt: at().notNull(),
    /** When it must be decided by: GRIEVANCE_RESPONSE_DAYS after it was made. */
    respondBy: at().notNull(),
    decidedAt: at(),
    /** Corrected or Declined, once decided. */
    outcome: text(),
    note: text(),
  },
  (t) => [
    index('correction_requests_customer_idx').on(t.customerId, t.submittedAt),
    // the waiting ones, by when they are due: what the overdue count and the operator's list read
    index('correction_requests_waiting_idx')
      .on(t.respondBy)
      .where(sql`${t.decidedAt} IS NULL`),
    // one waiting request per field: a second one at once fails the insert, on either database
    uniqueIndex('correction_requests_one_waiting_idx')
      .on(t.customerId, t.field)
      .where(sql`${t.decidedAt} IS NULL`),
  ],
);

/** The version of the privacy notice the customer last read, and when (decision 079). */
export const privacyNoticeReads = pgTable('privacy_notice_reads', {
  customerId: uuid()
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  version: text().notNull(),
  readAt: at().notNull(),
});
