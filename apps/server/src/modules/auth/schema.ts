import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { customers } from '../users/schema';

const at = () => timestamp({ withTimezone: true });

/** What ended a session. */
export type RevokeReason =
  | 'logout'
  | 'reuse'
  | 'idle'
  | 'absolute'
  | 'password_changed'
  | 'password_reset'
  | 'operator'
  /** ended from the security page of another of the customer's sessions */
  | 'signed_out'
  /** ended by the link of a new-browser notice */
  | 'notice_link';

/** The first sign-in step that passed, waiting for the e-mailed code. */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: uuid().primaryKey(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** SHA-256 of the tempToken the client holds. */
    tokenHash: text().notNull().unique(),
    /** SHA-256 of the challenge id and the code, so a code only fits its own challenge. */
    codeHash: text().notNull(),
    codeSentAt: at().notNull(),
    expiresAt: at().notNull(),
    attempts: integer().notNull().default(0),
    resendCount: integer().notNull().default(0),
    rememberMe: boolean().notNull().default(false),
    consumedAt: at(),
    createdAt: at().notNull(),
  },
  (t) => [index('login_challenges_customer_idx').on(t.customerId)],
);

/** A signed-in browser: one family of refresh tokens. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    rememberMe: boolean().notNull().default(false),
    createdAt: at().notNull(),
    lastUsedAt: at().notNull(),
    revokedAt: at(),
    /** logout, reuse, idle, absolute, password_changed, password_reset, operator */
    revokedReason: text(),
  },
  (t) => [index('sessions_customer_idx').on(t.customerId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    sessionId: uuid()
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** SHA-256 of the 256-bit token in the cookie. */
    tokenHash: text().notNull().unique(),
    createdAt: at().notNull(),
    /** Set when this token was exchanged for a newer one. */
    rotatedAt: at(),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    createdAt: at().notNull(),
    expiresAt: at().notNull(),
    /** Used, replaced by a newer link, or voided by a password change. */
    usedAt: at(),
  },
  (t) => [index('password_reset_tokens_customer_idx').on(t.customerId)],
);

/**
 * Failed sign-ins per e-mail address as typed (lower-cased), whether or not an account has it,
 * so that the answers never tell which addresses exist.
 */
export const accountThrottles = pgTable('account_throttles', {
  email: text().primaryKey(),
  consecutiveFailures: integer().notNull().default(0),
  blockedUntil: at(),
  /** Set at the hard limit; only a password reset clears it. */
  lockedAt: at(),
  updatedAt: at().notNull(),
});

/** Fixed-window counters per client address and action, e.g. `login:203.0.113.7`. */
export const rateLimitWindows = pgTable('rate_limit_windows', {
  key: text().primaryKey(),
  windowStart: at().notNull(),
  hits: integer().notNull().default(0),
});

/**
 * The browsers an account has signed in from, by the SHA-256 of each browser's long-lived random
 * device cookie: a sign-in from one not listed is mailed to the customer.
 */
export const seenBrowsers = pgTable(
  'seen_browsers',
  {
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    deviceHash: text().notNull(),
    firstSeenAt: at().notNull(),
    lastSeenAt: at().notNull(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.deviceHash] })],
);
