import { bigint, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../users/schema';

const at = () => timestamp({ withTimezone: true });

/** A customer's authenticator app (TOTP, RFC 6238): one row while it is being set up or on. */
export const twoFactorApps = pgTable('two_factor_apps', {
  customerId: uuid()
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  /** The base32 secret, sealed with the data encryption key and bound to the customer. */
  secret: text().notNull(),
  /** Null while the set-up waits for its first code; the app is the second factor once set. */
  enabledAt: at(),
  /** The time step of the last accepted code: it and every earlier one are refused (replay). */
  lastUsedStep: bigint({ mode: 'number' }),
  createdAt: at().notNull(),
});

/** The ten single-use recovery codes of an account with the app on, kept only as keyed hashes. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** HMAC-SHA-256 of the normalised code under a server key (decision 036). */
    codeHash: text().notNull(),
    usedAt: at(),
    createdAt: at().notNull(),
  },
  (t) => [uniqueIndex('two_factor_recovery_codes_customer_hash_idx').on(t.customerId, t.codeHash)],
);

/**
 * A customer who turned down the dashboard's invitation to add an authenticator app: it is not
 * shown again, in any browser.
 */
export const secondFactorInvitations = pgTable('second_factor_invitations', {
  customerId: uuid()
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  dismissedAt: at().notNull(),
});
