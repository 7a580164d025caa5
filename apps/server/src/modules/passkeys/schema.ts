import {
  bigint,
  boolean,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { loginChallenges } from '../auth/schema';
import { customers } from '../users/schema';

const at = () => timestamp({ withTimezone: true });

/** A customer's passkey (a WebAuthn credential): the second step of sign-in (decision 080). */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** The credential's id, base64url: one credential belongs to one account. */
    credentialId: text().notNull(),
    /** The COSE public key, base64url; public, so kept as it came. */
    publicKey: text().notNull(),
    /** The authenticator's signature counter: a later sign-in must give a greater one (a clone does not). */
    signCount: bigint({ mode: 'number' }).notNull(),
    /** Comma-separated hints for the browser (usb, internal, hybrid…), as the authenticator gave them. */
    transports: text().notNull(),
    /** Synced by its provider to the user's other devices (the backup state flag). */
    backedUp: boolean().notNull(),
    name: text().notNull(),
    createdAt: at().notNull(),
    lastUsedAt: at(),
  },
  (t) => [
    uniqueIndex('passkeys_credential_id_idx').on(t.credentialId),
    index('passkeys_customer_idx').on(t.customerId, t.createdAt),
  ],
);

/**
 * A challenge handed to the browser, answered once within its time: a registration's for its
 * customer, or a sign-in's for its pending sign-in.
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    /** The random challenge, base64url, as the browser signs it in clientDataJSON. */
    challenge: text().primaryKey(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** Set for a sign-in's challenge: only that pending sign-in may answer it. */
    loginChallengeId: uuid().references(() => loginChallenges.id, { onDelete: 'cascade' }),
    expiresAt: at().notNull(),
    createdAt: at().notNull(),
  },
  (t) => [index('passkey_challenges_expires_idx').on(t.expiresAt)],
);
