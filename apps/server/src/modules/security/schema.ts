import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sessions } from '../auth/schema';
import { customers } from '../users/schema';

const at = () => timestamp({ withTimezone: true });

/** Where a session was started: its browser and address, as the sign-in presented them. */
export const sessionDevices = pgTable('session_devices', {
  sessionId: uuid()
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  /** The User-Agent header, cut to a length any real browser stays within. */
  userAgent: text().notNull(),
  ip: text().notNull(),
});

/**
 * The link of a new-browser notice that ends the session it tells of: single-use (the row is
 * deleted by its use), expiring, and only the SHA-256 of its token stored.
 */
export const sessionEndLinks = pgTable(
  'session_end_links',
  {
    tokenHash: text().primaryKey(),
    sessionId: uuid()
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    expiresAt: at().notNull(),
  },
  (t) => [index('session_end_links_session_idx').on(t.sessionId)],
);

/**
 * Sign-ins and refused attempts (a wrong password, a wrong code) of an account, kept for
 * SIGN_IN_HISTORY_DAYS. The id grows with time: the history pages by (customer, id).
 */
export const signInEvents = pgTable(
  'sign_in_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    at: at().notNull(),
    /** success, wrong_password, wrong_code */
    outcome: text().notNull(),
    userAgent: text().notNull(),
    ip: text().notNull(),
    /** The session a success started; the history outlives it. */
    sessionId: uuid().references(() => sessions.id, { onDelete: 'set null' }),
  },
  (t) => [index('sign_in_events_customer_idx').on(t.customerId, t.id)],
);
