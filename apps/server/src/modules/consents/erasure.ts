// A closed account's consents (docs/decisions/062-complete-erasure-on-closing.md): each stays as
// the record of what the bank was asked and what became of it, without a field about the person.
import { and, eq, inArray, isNotNull, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { consentAccesses, consents } from './schema';

/** A consent that can no longer reach the bank: its tokens gone, no reconnection asked for. */
export const WITHOUT_BANK_ACCESS = {
  accessTokenEnc: null,
  accessTokenExpiresAt: null,
  refreshTokenEnc: null,
  refreshTokenExpiresAt: null,
  reconnectRequestedAt: null,
} as const;

/**
 * Erases the personal fields of every consent of the customer, whatever its status (the live
 * ones are revoked at the bank first, by `deleteConsent`), and the record of its partner's reads.
 * The document keys stay until their files are deleted (`forgetConsentDocument`).
 */
export async function eraseCustomerConsents(tx: Executor, customerId: string, now: Date) {
  const own = tx
    .select({ id: consents.id })
    .from(consents)
    .where(eq(consents.customerId, customerId));
  await tx.delete(consentAccesses).where(inArray(consentAccesses.consentRef, own));
  await tx
    .update(consents)
    .set({
      netBankingUserId: null,
      accounts: [],
      purpose: null,
      transactionFrom: null,
      transactionTo: null,
      ...WITHOUT_BANK_ACCESS,
      updatedAt: now,
    })
    .where(eq(consents.customerId, customerId));
}

/** The partner documents still in the file store of the customers given (ids, or a subquery). */
export async function consentDocumentsOf(db: Executor, customerIds: string[] | SQLWrapper) {
  const rows = await db
    .select({ id: consents.id, documentKey: consents.documentKey })
    .from(consents)
    .where(and(inArray(consents.customerId, customerIds), isNotNull(consents.documentKey)));
  return rows.flatMap(({ id, documentKey }) => (documentKey ? [{ id, documentKey }] : []));
}

/** The consent no longer has the document whose file was just deleted. */
export async function forgetConsentDocument(db: Executor, id: string, documentKey: string) {
  await db
    .update(consents)
    .set({ documentKey: null })
    .where(and(eq(consents.id, id), eq(consents.documentKey, documentKey)));
}
