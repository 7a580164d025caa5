import { and, eq, inArray } from 'drizzle-orm';
import { privacyMessages, type CloseAccountRequest } from '@portal/contract';
import type { AppDeps } from '../../deps';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import { activityEvents, activitySeen } from '../activity/schema';
import { loginChallenges, passwordResetTokens, seenBrowsers, sessions } from '../auth/schema';
import { revokeCustomerSessions } from '../auth/sessions';
import { billingDetails } from '../billing/schema';
import { deleteConsent } from '../consents/customer-consents';
import { consents } from '../consents/schema';
import { notificationPreferences } from '../preferences/schema';
import { sessionDevices, signInEvents } from '../security/schema';
import { twoFactorApps, twoFactorRecoveryCodes } from '../two-factor/schema';
import { customers } from '../users/schema';
import { findCustomerById } from '../users/service';
import { checkCode, checkPassword, consumeCode, issueCode } from './codes';
import { deleteCustomerDataExports } from './data-export';
import { accountClosures, privacyCodes } from './schema';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'files' | 'consents' | 'queue' | 'config'>;

/** Section 36 of the CGST Act: accounts and records are kept 72 months. */
export const TAX_RECORDS_MONTHS = 72;

/** An address under .invalid (RFC 2606): no mail can reach it, and nobody can sign in with it. */
export const tombstoneEmail = (customerId: string) => `closed-${customerId}@closed.invalid`;
export const TOMBSTONE_NAME = 'Closed account';

export async function isClosed(db: Executor, customerId: string) {
  const [row] = await db
    .select({ closedAt: accountClosures.closedAt })
    .from(accountClosures)
    .where(eq(accountClosures.customerId, customerId));
  return Boolean(row);
}

async function openAccount(db: Executor, customerId: string) {
  const customer = await findCustomerById(db, customerId);
  if (!customer || (await isClosed(db, customerId))) {
    throw new AppError('CONFLICT', privacyMessages.alreadyClosed);
  }
  return customer;
}

export async function sendCloseAccountCode(deps: Deps, customerId: string) {
  const customer = await openAccount(deps.db, customerId);
  await issueCode(deps, customerId, 'close-account', customer.email);
}

/** The customer's tables that hold only personal data, emptied when the account closes. */
const PERSONAL_TABLES = [
  activityEvents,
  activitySeen,
  signInEvents,
  billingDetails,
  notificationPreferences,
  privacyCodes,
  twoFactorApps,
  twoFactorRecoveryCodes,
  loginChallenges,
  passwordResetTokens,
  seenBrowsers,
] as const;

/**
 * Closes the account (decision 043): the password and the e-mailed code, then every live consent
 * revoked at the bank through the consents module's own path (a bank that cannot be reached stops
 * here, and the request may be repeated), then in one transaction every session ended and the
 * personal data replaced by a tombstone. Invoices and orders stay for the 72 months tax law asks.
 */
export async function closeAccount(deps: Deps, customerId: string, input: CloseAccountRequest) {
  const { db, clock } = deps;
  const customer = await openAccount(db, customerId);
  await checkPassword(deps, customerId, customer.passwordHash, input.password);
  const { codeHash } = await checkCode(deps, customerId, 'close-account', input.code);

  const live = await db
    .select({ id: consents.id })
    .from(consents)
    .where(
      and(eq(consents.customerId, customerId), inArray(consents.status, ['Pending', 'Approved'])),
    );
  for (const consent of live) await deleteConsent(deps, customerId, consent.id);

  const now = clock.now();
  const keepUntil = new Date(now);
  keepUntil.setUTCMonth(keepUntil.getUTCMonth() + TAX_RECORDS_MONTHS);
  await db.transaction(async (tx) => {
    await consumeCode(tx, customerId, 'close-account', codeHash);
    const [closed] = await tx
      .insert(accountClosures)
      .values({ customerId, closedAt: now, keepTaxRecordsUntil: keepUntil })
      .onConflictDoNothing()
      .returning({ customerId: accountClosures.customerId });
    if (!closed) throw new AppError('CONFLICT', privacyMessages.alreadyClosed);
    await revokeCustomerSessions(tx, clock, customerId, 'operator');
    await tx
      .update(customers)
      .set({
        email: tombstoneEmail(customerId),
        mobile: '',
        companyName: TOMBSTONE_NAME,
        tallySerialNo: '',
        category: null,
        tallyVersion: null,
        // not an argon2 hash: no password verifies against it
        passwordHash: 'closed',
        updatedAt: now,
      })
      .where(eq(customers.id, customerId));
    const ended = tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.customerId, customerId));
    await tx.delete(sessionDevices).where(inArray(sessionDevices.sessionId, ended));
    for (const table of PERSONAL_TABLES) {
      await tx.delete(table).where(eq(table.customerId, customerId));
    }
  });
  // after the commit: a file of the store cannot roll back with the rows
  await deleteCustomerDataExports(deps, customerId);
}
