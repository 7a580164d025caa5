import { and, eq, inArray, type SQLWrapper } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { privacyMessages, type CloseAccountRequest } from '@portal/contract';
import type { FileStore } from '../../adapters/file-store';
import type { AppDeps } from '../../deps';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import { activityEvents, activitySeen } from '../activity/schema';
import { recordAudit } from '../audit/record';
import {
  accountThrottles,
  loginChallenges,
  passwordResetTokens,
  seenBrowsers,
  sessions,
} from '../auth/schema';
import { revokeCustomerSessions } from '../auth/sessions';
import { billingDetails } from '../billing/schema';
import { deleteConsent } from '../consents/customer-consents';
import {
  consentDocumentsOf,
  eraseCustomerConsents,
  forgetConsentDocument,
} from '../consents/erasure';
import { consents } from '../consents/schema';
import { orders } from '../purchases/schema';
import { cancelOpenPaymentLinks } from '../purchases/open-links';
import { paymentEvents } from '../purchases/schema';
import { customerPlans } from '../plans/schema';
import { notificationPreferences } from '../preferences/schema';
import { financialYearOf } from '../invoices/gst';
import { remindersSent } from '../reminders/schema';
import { sessionDevices, signInEvents } from '../security/schema';
import {
  secondFactorInvitations,
  twoFactorApps,
  twoFactorRecoveryCodes,
} from '../two-factor/schema';
import { passkeyChallenges, passkeys } from '../passkeys/schema';
import { customers } from '../users/schema';
import { CLOSED_PASSWORD_HASH, findCustomerById } from '../users/service';
import { checkCode, checkPassword, consumeCode, issueCode } from './codes';
import { dataExportsOf, endCustomerDataExports, forgetDataExport } from './data-export';
import {
  accountClosures,
  correctionRequests,
  grievances,
  nominees,
  privacyCodes,
  privacyNoticeReads,
} from './schema';
import { cancelMandateOnClosing } from '../auto-renewal/service';
import { autoRenewals } from '../auto-renewal/schema';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'files' | 'consents' | 'queue' | 'config'>;

/**
 * Section 36 of the CGST Act: accounts and records are kept 72 months from the due date of the
 * annual return of their financial year, which section 44 sets at 31 December after the year.
 */
export const TAX_RECORDS_MONTHS = 72;
const INDIA_OFFSET_MS = 330 * 60_000;
/** Midnight in India at the start of the month's first day. */
const indianMonthStart = (year: number, month: number) =>
  new Date(Date.UTC(year, month, 1) - INDIA_OFFSET_MS);

/**
 * Until when the tax records dated `at` are kept: records of the financial year 2026-27, whose
 * annual return is due on 31/12/2027, to the end of 31/12/2033 in India.
 */
export function taxRecordsKeptUntil(at: Date): Date {
  const returnDueYear = Number(financialYearOf(at).slice(0, 4)) + 1;
  return indianMonthStart(returnDueYear + TAX_RECORDS_MONTHS / 12 + 1, 0);
}

/**
 * The records dated before this have been kept their whole time at `now`: on 01/01/2034 those of
 * 2026-27 and before, which end on 01/04/2027 (`taxRecordsKeptUntil` of each is at most `now`).
 */
export function taxRecordsDoneBefore(now: Date): Date {
  const year = new Date(now.getTime() + INDIA_OFFSET_MS).getUTCFullYear();
  return indianMonthStart(year - 1 - TAX_RECORDS_MONTHS / 12, 3);
}

/** An address under .invalid (RFC 2606): no mail can reach it, and nobody can sign in with it. */
export const tombstoneEmail = (customerId: string) => `closed-${customerId}@closed.invalid`;
export const TOMBSTONE_NAME = 'Closed account';

export async function isClosed(db: Executor, customerId: string) {
  const [row] = await db
    .select(
      // Stryker disable next-line ObjectLiteral: only whether a row comes back is read; a select of no columns answers the same rows
      { closedAt: accountClosures.closedAt },
    )
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
  nominees,
  grievances,
  correctionRequests,
  privacyNoticeReads,
  twoFactorApps,
  twoFactorRecoveryCodes,
  secondFactorInvitations,
  passkeyChallenges,
  passkeys,
  loginChallenges,
  passwordResetTokens,
  seenBrowsers,
  remindersSent,
  customerPlans,
  // its charges' keys go with it; the orders they paid for stay with their invoices
  autoRenewals,
] as const;

type Log = Pick<FastifyBaseLogger, 'warn'>;

/**
 * Removes a file of a closed account from the store. A failure is logged with the row's id alone
 * and answered false: the row keeps the key for a later pass to try again.
 */
export async function removeOrLog(
  files: FileStore,
  log: Log,
  key: string,
  ids: Record<string, string>,
): Promise<boolean> {
  try {
    await files.remove(key);
    return true;
  } catch (error) {
    log.warn(
      { err: error, ...ids },
      'a file of a closed account was not deleted; tried again later',
    );
    return false;
  }
}

/**
 * The files of closed accounts, after the closing has committed (a file cannot roll back with the
 * rows): each partner document and each "Download my data" file. A row keeps its file's key
 * until the file is gone, so that the closed-account purge tries again what failed here.
 */
export async function deleteClosedAccountFiles(
  deps: Pick<Deps, 'db' | 'files'>,
  log: Log,
  customerIds: string[] | SQLWrapper,
): Promise<number> {
  let deleted = 0;
  for (const { id, documentKey } of await consentDocumentsOf(deps.db, customerIds)) {
    if (!(await removeOrLog(deps.files, log, documentKey, { consent: id }))) continue;
    await forgetConsentDocument(deps.db, id, documentKey);
    deleted += 1;
  }
  for (const { id, key } of await dataExportsOf(deps.db, customerIds)) {
    if (!(await removeOrLog(deps.files, log, key, { dataExport: id }))) continue;
    await forgetDataExport(deps.db, id);
    deleted += 1;
  }
  return deleted;
}

/**
 * Closes the account (decisions 043 and 062): the password and the e-mailed code, then every live
 * consent revoked at the bank through the consents module's own path, and every Pending order's
 * payment link cancelled at the gateway (a bank or gateway that cannot be reached stops here,
 * and the request may be repeated), then in one transaction every session
 * ended, the personal data erased or replaced by a tombstone, and last the files. Invoices and
 * orders stay for the time tax law asks; the closed-account purge deletes them after it.
 */
export async function closeAccount(
  deps: AppDeps,
  customerId: string,
  input: CloseAccountRequest,
  log: Log,
) {
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
  // no open payment link may take money for a closed account
  await cancelOpenPaymentLinks(deps, customerId);
  // nor any mandate debit it
  await cancelMandateOnClosing(deps, customerId);

  const now = clock.now();
  const keepUntil = taxRecordsKeptUntil(now);
  await db.transaction(async (tx) => {
    await consumeCode(tx, customerId, 'close-account', codeHash);
    const [closed] = await tx
      .insert(accountClosures)
      .values({ customerId, closedAt: now, keepTaxRecordsUntil: keepUntil })
      .onConflictDoNothing()
      .returning({ customerId: accountClosures.customerId });
    // unreachable while the code's claim above lets one close through: a customer has one close
    // code at a time, and a second claim of it waits for the first and then finds it gone
    // Stryker disable next-line ConditionalExpression: the same claim refuses the second close first
    if (!closed) throw new AppError('CONFLICT', privacyMessages.alreadyClosed);
    await recordAudit(tx, clock, { actor: 'customer', customerId, action: 'account_closed' });
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
        passwordHash: CLOSED_PASSWORD_HASH,
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
    // the sign-in failures counted under the address
    await tx.delete(accountThrottles).where(eq(accountThrottles.email, customer.email));
    await eraseCustomerConsents(tx, customerId, now);
    // an order keeps what its invoice states; who paid, and the gateway's copy of it, go
    await tx
      .update(orders)
      .set({ customerName: null, customerEmail: null, customerPhone: null })
      .where(eq(orders.customerId, customerId));
    const own = tx.select({ id: orders.id }).from(orders).where(eq(orders.customerId, customerId));
    await tx.update(paymentEvents).set({ payload: {} }).where(inArray(paymentEvents.orderId, own));
    await endCustomerDataExports(tx, customerId);
  });
  await deleteClosedAccountFiles(deps, log, [customerId]);
}
