// A partner's reads of the data a consent covers: each one allowed by the bank under the consent's
// terms and recorded as its last access (decision 044), in one narrow row per consent
// (consent_accesses) so that the write touches neither the wide consents row, its indexes nor its
// counters' trigger.
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type {
  PartnerAccountsResponse,
  PartnerTransactionsQuery,
  PartnerTransactionsResponse,
} from '@portal/contract';
import { ConsentProviderError, type ProviderRead } from '../../adapters/consent-provider';
import type { AppDeps } from '../../deps';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { BankResource } from '../../adapters/bank-wire';
import type { Partner } from '../partners/schema';
import { bankFailure, readToken, type ConsentWithAccess } from './rows';
import { consentAccesses, consents } from './schema';
import { DAY_MS } from '../../lib/clock';

/** A consent's columns with its last access, for `db.select(…).from(consents)` + withAccess. */
export const consentWithAccess = {
  ...getTableColumns(consents),
  lastAccessedAt: consentAccesses.lastAccessedAt,
  readsMade: sql<number>`coalesce(${consentAccesses.fetchesTotal}, 0)`.mapWith(Number),
};

/** Joins each consent to its access row, when the partner has read at all. */
export const accessJoin = eq(consentAccesses.consentRef, consents.id);

/** One consent of this partner's, by the bank's id, with its last access. */
export async function findPartnerConsent(
  db: Executor,
  partner: Pick<Partner, 'id'>,
  consentId: string,
): Promise<ConsentWithAccess | null> {
  const [row] = await db
    .select(consentWithAccess)
    .from(consents)
    .leftJoin(consentAccesses, accessJoin)
    .where(and(eq(consents.consentId, consentId), eq(consents.partnerRef, partner.id)));
  return row ?? null;
}

/**
 * The portal's guard before it asks the bank: the reads a day already used, as the portal recorded
 * them. The bank decides (decision 044); this only spares it a read that is refused anyway.
 */
async function readsUsed(db: Executor, consentRef: string, now: Date) {
  const [row] = await db
    .select()
    .from(consentAccesses)
    .where(eq(consentAccesses.consentRef, consentRef));
  if (!row || row.windowStartedAt.getTime() <= now.getTime() - DAY_MS) return 0;
  return row.fetchesInWindow;
}

/**
 * Records one read the bank allowed, at the bank's time, as the last access and in the day's
 * count, in one statement: two reads at once are serialised on the row, so neither the count nor
 * the time can go backwards. A day is the 24 hours from the first read of the window, as at the
 * bank; the bank has already applied the limit, so each allowed read is counted once here.
 */
async function recordRead(db: Executor, consentRef: string, at: Date) {
  const windowOver = sql`a.window_started_at <= ${at}::timestamptz - interval '1 day'`;
  await db.execute(sql`
    INSERT INTO consent_accesses AS a (consent_ref, last_accessed_at, window_started_at, fetches_in_window, fetches_total)
    VALUES (${consentRef}, ${at}, ${at}, 1, 1)
    ON CONFLICT (consent_ref) DO UPDATE SET
      last_accessed_at = GREATEST(a.last_accessed_at, excluded.last_accessed_at),
      fetches_total = a.fetches_total + 1,
      window_started_at = CASE WHEN ${windowOver} THEN excluded.window_started_at ELSE a.window_started_at END,
      fetches_in_window = CASE WHEN ${windowOver} THEN 1 ELSE a.fetches_in_window + 1 END`);
}

const frequencyRefusal = (row: ConsentWithAccess) =>
  new AppError(
    'TOO_MANY_REQUESTS',
    `Consent ${row.consentId} allows ${row.fetchesPerDay} reads a day, and they are used; try again later.`,
  );

/**
 * A partner reads data under one of its consents. The portal refuses what it knows to be refused
 * (not approved, expired, the day's reads used); the bank applies all the terms and records the
 * read, and its record becomes the consent's last access. A refusal changes nothing here.
 */
async function readUnderConsent(
  deps: Pick<AppDeps, 'db' | 'clock' | 'consents'>,
  partner: Pick<Partner, 'id'>,
  consentId: string,
  read: { resource: BankResource; from?: Date; to?: Date },
): Promise<{ row: ConsentWithAccess; answer: ProviderRead }> {
  const { db, clock } = deps;
  const now = clock.now();
  const row = await findPartnerConsent(db, partner, consentId);
  if (!row) throw new AppError('NOT_FOUND', 'Consent not found');
  const lapsed = row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();
  if (row.status === 'Approved' && !lapsed && row.providerStatus === 'Paused') {
    throw new AppError(
      'FORBIDDEN',
      `Consent ${row.consentId} is Paused: the customer has paused it, and no data can be read until they resume it.`,
    );
  }
  if (row.status !== 'Approved' || lapsed) {
    const status = row.status === 'Approved' ? 'Expired' : row.status;
    throw new AppError(
      'FORBIDDEN',
      `Consent ${row.consentId} is ${status}: only an approved consent before its expiry gives access to data.`,
    );
  }
  if ((await readsUsed(db, row.id, now)) >= row.fetchesPerDay) throw frequencyRefusal(row);
  const { encryption, provider } = deps.consents;
  let answer: ProviderRead;
  try {
    answer = await provider.readData(row.consentId, read, {
      accessToken: readToken(encryption, row.id, 'access', row.accessTokenEnc),
    });
  } catch (error) {
    if (error instanceof ConsentProviderError && error.refusal === 'frequency') {
      throw frequencyRefusal(row);
    }
    if (error instanceof ConsentProviderError && error.refusal) {
      throw new AppError(
        'FORBIDDEN',
        `The bank refused the read: ${error.message}. Nothing was read.`,
      );
    }
    bankFailure(error, 'read');
  }
  await recordRead(db, row.id, answer.accessedAt);
  return { row, answer };
}

/** The partner reads the accounts a consent covers: the masked ones stored, never full numbers. */
export async function readConsentAccounts(
  deps: Pick<AppDeps, 'db' | 'clock' | 'consents'>,
  partner: Pick<Partner, 'id'>,
  consentId: string,
): Promise<PartnerAccountsResponse['data']> {
  const { row, answer } = await readUnderConsent(deps, partner, consentId, {
    resource: 'accounts',
  });
  return {
    consentId: row.consentId,
    accounts: row.accounts,
    transactionFromDateTime: row.transactionFrom?.toISOString() ?? null,
    transactionToDateTime: row.transactionTo?.toISOString() ?? null,
    fetchesLeftToday: answer.fetchesLeftToday,
    accessedAt: answer.accessedAt.toISOString(),
  };
}

/** The partner reads transactions; the bank gives only those within the consent's period. */
export async function readConsentTransactions(
  deps: Pick<AppDeps, 'db' | 'clock' | 'consents'>,
  partner: Pick<Partner, 'id'>,
  consentId: string,
  query: PartnerTransactionsQuery,
): Promise<PartnerTransactionsResponse['data']> {
  const from = query.fromBookingDateTime ? new Date(query.fromBookingDateTime) : undefined;
  const to = query.toBookingDateTime ? new Date(query.toBookingDateTime) : undefined;
  if (from && to && from >= to) {
    throw new AppError('BAD_REQUEST', 'fromBookingDateTime must be before toBookingDateTime');
  }
  const { row, answer } = await readUnderConsent(deps, partner, consentId, {
    resource: 'transactions',
    from,
    to,
  });
  return {
    consentId: row.consentId,
    transactions: (answer.transactions ?? []).map((t) => ({
      transactionId: t.TransactionId,
      bookingDateTime: t.BookingDateTime,
      creditDebitIndicator: t.CreditDebitIndicator,
      amount: t.Amount.Amount,
      currency: t.Amount.Currency,
      information: t.TransactionInformation,
    })),
    fetchesLeftToday: answer.fetchesLeftToday,
    accessedAt: answer.accessedAt.toISOString(),
  };
}
