import { createHash, randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray, max, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { DAY_MS, type Clock } from '../../lib/clock';
import { sandboxBankAccesses, sandboxBankConsents, type SandboxBankConsent } from './schema';
import type { BankResource, BankTransaction } from '../../adapters/bank-wire';

export const BANK_STATUSES = [
  'AwaitingAuthorisation',
  'Authorised',
  'Rejected',
  'Revoked',
] as const;
export type BankStatus = (typeof BANK_STATUSES)[number];

/** How long a consent lasts when the client names no expiry. */
export const DEFAULT_CONSENT_DAYS = 90;
/** Access tokens live a day; the refresh token lives as long as the consent. */
export const ACCESS_TOKEN_TTL_MS = DAY_MS;

export class SandboxBankError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

const newConsentId = () => `sbk-intent-${randomBytes(10).toString('hex')}`;
const newToken = (kind: 'at' | 'rt') => `sbk_${kind}_${randomBytes(48).toString('base64url')}`;

export async function createBankConsent(
  db: Executor,
  clock: Clock,
  input: {
    clientId: string;
    permissions: string[];
    expirationDateTime?: Date;
    transactionFromDateTime?: Date;
    transactionToDateTime?: Date;
    purpose?: string;
    fetchesPerDay?: number;
    /** Seeding only: back-dates the consent. */
    createdAt?: Date;
  },
): Promise<SandboxBankConsent> {
  const now = input.createdAt ?? clock.now();
  const expiry =
    input.expirationDateTime ?? new Date(now.getTime() + DEFAULT_CONSENT_DAYS * DAY_MS);
  if (expiry.getTime() <= now.getTime()) {
    throw new SandboxBankError(400, 'ExpirationDateTime must be in the future');
  }
  const { transactionFromDateTime: from, transactionToDateTime: to } = input;
  if (from && to && from.getTime() >= to.getTime()) {
    throw new SandboxBankError(400, 'TransactionFromDateTime must be before TransactionToDateTime');
  }
  const [row] = await db
    .insert(sandboxBankConsents)
    .values({
      consentId: newConsentId(),
      clientId: input.clientId,
      status: 'AwaitingAuthorisation',
      permissions: [...new Set(input.permissions)],
      expirationDateTime: expiry,
      transactionFromDateTime: from ?? null,
      transactionToDateTime: to ?? null,
      purpose: input.purpose ?? null,
      ...(input.fetchesPerDay ? { fetchesPerDay: input.fetchesPerDay } : {}),
      creationDateTime: now,
      statusUpdateDateTime: now,
    })
    .returning();
  return row!;
}

/** The shape of the ids this bank gives out; anything else names no consent here. */
export const isBankConsentId = (id: string) => /^[A-Za-z0-9._-]{1,200}$/.test(id);

export async function findBankConsent(db: Executor, consentId: string) {
  // a NUL or other odd text cannot be a text parameter in PostgreSQL: it names nothing here
  if (!isBankConsentId(consentId)) return null;
  const [row] = await db
    .select()
    .from(sandboxBankConsents)
    .where(eq(sandboxBankConsents.consentId, consentId));
  return row ?? null;
}

async function requireAwaiting(db: Executor, consentId: string, at: Date) {
  const row = await findBankConsent(db, consentId);
  if (!row) throw new SandboxBankError(404, `No consent ${consentId} at the sandbox bank`);
  if (row.status !== 'AwaitingAuthorisation') {
    throw new SandboxBankError(409, `Consent ${consentId} is already ${row.status}`);
  }
  if (row.expirationDateTime.getTime() <= at.getTime()) {
    throw new SandboxBankError(409, `Consent ${consentId} has passed its expiry time`);
  }
  return row;
}

/** Applies the bank's decision, unless another decision landed first. */
async function decideAwaiting(
  db: Executor,
  consentId: string,
  decision: Partial<typeof sandboxBankConsents.$inferInsert>,
): Promise<SandboxBankConsent> {
  const [updated] = await db
    .update(sandboxBankConsents)
    .set(decision)
    .where(
      and(
        eq(sandboxBankConsents.consentId, consentId),
        eq(sandboxBankConsents.status, 'AwaitingAuthorisation'),
      ),
    )
    .returning();
  if (!updated) throw new SandboxBankError(409, `Consent ${consentId} was decided meanwhile`);
  return updated;
}

/** The customer says yes at the bank: the consent is authorised and tokens are issued. */
export async function authoriseBankConsent(
  db: Executor,
  clock: Clock,
  consentId: string,
  options: { at?: Date } = {},
): Promise<SandboxBankConsent> {
  const at = options.at ?? clock.now();
  const row = await requireAwaiting(db, consentId, at);
  const accessExpiry = new Date(
    Math.min(at.getTime() + ACCESS_TOKEN_TTL_MS, row.expirationDateTime.getTime()),
  );
  return decideAwaiting(db, consentId, {
    status: 'Authorised',
    statusUpdateDateTime: at,
    accessToken: newToken('at'),
    accessTokenExpiresAt: accessExpiry,
    refreshToken: newToken('rt'),
    refreshTokenExpiresAt: row.expirationDateTime,
  });
}

/** The customer says no at the bank. */
export async function rejectBankConsent(
  db: Executor,
  clock: Clock,
  consentId: string,
  options: { at?: Date } = {},
): Promise<SandboxBankConsent> {
  const at = options.at ?? clock.now();
  await requireAwaiting(db, consentId, at);
  return decideAwaiting(db, consentId, { status: 'Rejected', statusUpdateDateTime: at });
}

/**
 * The client withdraws the consent. Repeating it, or revoking one that was rejected, changes
 * nothing and is not an error.
 */
export async function revokeBankConsent(
  db: Executor,
  clock: Clock,
  consentId: string,
  options: { at?: Date } = {},
): Promise<void> {
  const row = await findBankConsent(db, consentId);
  if (!row) throw new SandboxBankError(404, `No consent ${consentId} at the sandbox bank`);
  await db
    .update(sandboxBankConsents)
    .set({
      status: 'Revoked',
      statusUpdateDateTime: options.at ?? clock.now(),
      accessToken: null,
      accessTokenExpiresAt: null,
      refreshToken: null,
      refreshTokenExpiresAt: null,
    })
    .where(
      and(
        eq(sandboxBankConsents.consentId, consentId),
        inArray(sandboxBankConsents.status, ['AwaitingAuthorisation', 'Authorised']),
      ),
    );
}

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

/** The newest consents first, for the sandbox page. */
export function listBankConsents(db: Executor, limit = 100) {
  return db
    .select()
    .from(sandboxBankConsents)
    .orderBy(desc(sandboxBankConsents.creationDateTime))
    .limit(limit);
}

/** A read's outcome as the bank records it: Allowed, or why it was refused. */
export type ReadOutcome =
  | 'Allowed'
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
