// The sandbox bank's reads under a consent: the terms decide each one, and every read, allowed or
// refused, is on the bank's record.
import { createHash } from 'node:crypto';
import { count, eq, inArray, max, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { DAY_MS, type Clock } from '../../lib/clock';
import { sandboxBankAccesses, sandboxBankConsents, type SandboxBankConsent } from './schema';
import type { BankResource, BankTransaction, READ_REFUSALS } from '../../adapters/bank-wire';
import { SandboxBankError } from './service';

/** What the bank recorded of the reads under each consent, for the sandbox page. */
export interface ReadSummary {
  allowed: number;
  refused: number;
  lastAllowedAt: Date | null;
}

export async function summariseBankReads(
  db: Executor,
  consentIds: string[],
): Promise<Map<string, ReadSummary>> {
  // Stryker disable next-line ConditionalExpression: an empty IN list finds no read either; only the round trip is spared
  if (consentIds.length === 0) return new Map();
  const allowed = sql<boolean>`${sandboxBankAccesses.outcome} = 'Allowed'`;
  const rows = await db
    .select({
      consentId: sandboxBankAccesses.consentId,
      allowed,
      n: count(),
      last: max(sandboxBankAccesses.accessedAt),
    })
    .from(sandboxBankAccesses)
    .where(inArray(sandboxBankAccesses.consentId, consentIds))
    .groupBy(sandboxBankAccesses.consentId, allowed);
  const summaries = new Map<string, ReadSummary>();
  for (const row of rows) {
    const summary = summaries.get(row.consentId) ?? { allowed: 0, refused: 0, lastAllowedAt: null };
    if (row.allowed) {
      summary.allowed = row.n;
      summary.lastAllowedAt = row.last ? new Date(row.last) : null;
    } else {
      summary.refused = row.n;
    }
    summaries.set(row.consentId, summary);
  }
  return summaries;
}

/** A read's outcome as the bank records it: Allowed, or why it was refused. */
export type ReadOutcome =
  | 'Allowed'
  | 'Paused'
  | 'NotAuthorised'
  | 'Expired'
  | 'PermissionMissing'
  | 'OutsidePeriod'
  | 'FrequencyExceeded';

/** The permissions that let a client read each resource (any one of them is enough). */
const READ_PERMISSIONS: Record<BankResource, string[]> = {
  accounts: ['ReadAccountsBasic', 'ReadAccountsDetail'],
  transactions: [
    'ReadTransactionsBasic',
    'ReadTransactionsDetail',
    'ReadTransactionsCredits',
    'ReadTransactionsDebits',
  ],
};

/** How far back transactions go when neither the client nor the consent names a start. */
const DEFAULT_TRANSACTION_DAYS = 90;

export interface BankRead {
  outcome: ReadOutcome;
  consent: SandboxBankConsent;
  accessId: string;
  accessedAt: Date;
  fetchesLeftToday: number;
  /** The period of transactions read; null for accounts. */
  period: { from: Date; to: Date } | null;
}

function outcomeOf(
  row: SandboxBankConsent,
  resource: BankResource,
  period: BankRead['period'],
  now: Date,
  windowOver: boolean,
): ReadOutcome {
  if (row.status === 'Paused') return 'Paused';
  if (row.status !== 'Authorised') return 'NotAuthorised';
  if (row.expirationDateTime.getTime() <= now.getTime()) return 'Expired';
  if (!READ_PERMISSIONS[resource].some((p) => row.permissions.includes(p))) {
    return 'PermissionMissing';
  }
  if (
    period &&
    (period.from >= period.to ||
      (row.transactionFromDateTime && period.from < row.transactionFromDateTime) ||
      (row.transactionToDateTime && period.to > row.transactionToDateTime))
  ) {
    return 'OutsidePeriod';
  }
  if (!windowOver && row.fetchesInWindow >= row.fetchesPerDay) return 'FrequencyExceeded';
  return 'Allowed';
}

/**
 * A client reads data under a consent. The consent's terms decide (status, expiry, permission,
 * transaction period, reads a day), and the read is recorded whatever the outcome. The consent
 * row is locked for the decision, so reads at once are counted one after the other and the
 * limit holds exactly. A day is the 24 hours from the first allowed read of the window.
 */
export async function readAtBank(
  db: Executor,
  clock: Clock,
  input: { consentId: string; resource: BankResource; from?: Date; to?: Date },
): Promise<BankRead> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(sandboxBankConsents)
      .where(eq(sandboxBankConsents.consentId, input.consentId))
      .for('update');
    if (!row) throw new SandboxBankError(404, `No consent ${input.consentId} at the sandbox bank`);
    if (input.from && input.to && input.from.getTime() >= input.to.getTime()) {
      throw new SandboxBankError(400, 'fromBookingDateTime must be before toBookingDateTime');
    }
    let period: BankRead['period'] = null;
    if (input.resource === 'transactions') {
      // a bound not asked for is the consent's; one that crosses it is outside the period
      const to = input.to ?? row.transactionToDateTime ?? now;
      const from =
        input.from ??
        row.transactionFromDateTime ??
        new Date(to.getTime() - DEFAULT_TRANSACTION_DAYS * DAY_MS);
      period = { from, to };
    }
    const windowOver =
      row.windowStartedAt === null || row.windowStartedAt.getTime() <= now.getTime() - DAY_MS;
    const outcome = outcomeOf(row, input.resource, period, now, windowOver);
    let consent = row;
    if (outcome === 'Allowed') {
      const [updated] = await tx
        .update(sandboxBankConsents)
        .set(
          windowOver
            ? { windowStartedAt: now, fetchesInWindow: 1 }
            : { fetchesInWindow: row.fetchesInWindow + 1 },
        )
        .where(eq(sandboxBankConsents.consentId, row.consentId))
        .returning();
      consent = updated!;
    }
    const [access] = await tx
      .insert(sandboxBankAccesses)
      .values({
        consentId: row.consentId,
        accessedAt: now,
        resource: input.resource,
        fromDateTime: period?.from ?? null,
        toDateTime: period?.to ?? null,
        outcome,
      })
      .returning({ id: sandboxBankAccesses.id });
    return {
      outcome,
      consent,
      accessId: access!.id,
      accessedAt: now,
      fetchesLeftToday: Math.max(0, consent.fetchesPerDay - consent.fetchesInWindow),
      period,
    };
  });
}

/** Transactions this bank invents for a consent, one a day at noon IST, the same every time. */
export function sandboxTransactions(
  consentId: string,
  period: { from: Date; to: Date },
  limit = 400,
): BankTransaction[] {
  const out: BankTransaction[] = [];
  const first = new Date(period.from);
  first.setUTCHours(6, 30, 0, 0);
  if (first < period.from) first.setTime(first.getTime() + DAY_MS);
  for (let at = first.getTime(); at <= period.to.getTime() && out.length < limit; at += DAY_MS) {
    const booked = new Date(at).toISOString();
    const hash = createHash('sha256').update(`${consentId}:${booked}`).digest();
    const paise = hash.readUInt32BE(0) % 5_000_000;
    out.push({
      TransactionId: hash.subarray(4, 16).toString('hex'),
      BookingDateTime: booked,
      CreditDebitIndicator: hash[16]! % 2 === 0 ? 'Credit' : 'Debit',
      Amount: { Amount: (paise / 100).toFixed(2), Currency: 'INR' },
      TransactionInformation: hash[16]! % 2 === 0 ? 'NEFT receipt' : 'UPI payment',
    });
  }
  return out;
}

export const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Each refusal of a read: its status, its ErrorCode (bank-wire.ts READ_REFUSALS) and its words. */
export const REFUSED: Record<
  Exclude<ReadOutcome, 'Allowed'>,
  { status: 403 | 429; code: keyof typeof READ_REFUSALS; message: (read: BankRead) => string }
> = {
  Paused: {
    status: 403,
    code: 'UK.OBIE.Consent.Paused',
    message: ({ consent }) => `Consent ${consent.consentId} is paused by the customer`,
  },
  NotAuthorised: {
    status: 403,
    code: 'UK.OBIE.Consent.NotAuthorised',
    message: ({ consent }) => `Consent ${consent.consentId} is ${consent.status}`,
  },
  Expired: {
    status: 403,
    code: 'UK.OBIE.Consent.Expired',
    message: ({ consent }) =>
      `Consent ${consent.consentId} expired at ${consent.expirationDateTime.toISOString()}`,
  },
  PermissionMissing: {
    status: 403,
    code: 'UK.OBIE.Consent.PermissionMissing',
    message: ({ consent }) =>
      `Consent ${consent.consentId} does not grant the permission this read needs`,
  },
  OutsidePeriod: {
    status: 403,
    code: 'UK.OBIE.Consent.OutsidePeriod',
    message: ({ consent }) =>
      `Consent ${consent.consentId} covers transactions from ${iso(consent.transactionFromDateTime) ?? 'any time'} to ${iso(consent.transactionToDateTime) ?? 'any time'} only`,
  },
  FrequencyExceeded: {
    status: 429,
    code: 'UK.OBIE.Consent.FrequencyExceeded',
    message: ({ consent }) =>
      `Consent ${consent.consentId} allows ${consent.fetchesPerDay} reads a day, and they are used`,
  },
};
