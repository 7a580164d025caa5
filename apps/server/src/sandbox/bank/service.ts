import { randomBytes } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { DAY_MS, type Clock } from '../../lib/clock';
import { sandboxBankConsents, type SandboxBankConsent } from './schema';
import type { SettableStatus } from '../../adapters/bank-wire';

export const BANK_STATUSES = [
  'AwaitingAuthorisation',
  'Authorised',
  'Paused',
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
    dataLifeDays?: number;
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
      dataLifeDays: input.dataLifeDays ?? null,
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
 * The client pauses an authorised consent or resumes a paused one (decision 077). Asking for the
 * status it already has changes nothing; any other move, or one past the expiry, is a 409.
 */
export async function setBankConsentStatus(
  db: Executor,
  clock: Clock,
  consentId: string,
  wanted: SettableStatus,
): Promise<SandboxBankConsent> {
  const now = clock.now();
  const from = wanted === 'Paused' ? 'Authorised' : 'Paused';
  const [moved] = await db
    .update(sandboxBankConsents)
    .set({ status: wanted, statusUpdateDateTime: now })
    .where(
      and(
        eq(sandboxBankConsents.consentId, consentId),
        eq(sandboxBankConsents.status, from),
        sql`${sandboxBankConsents.expirationDateTime} > ${now}`,
      ),
    )
    .returning();
  if (moved) return moved;
  const row = await findBankConsent(db, consentId);
  if (!row) throw new SandboxBankError(404, `No consent ${consentId} at the sandbox bank`);
  if (row.status === wanted && row.expirationDateTime.getTime() > now.getTime()) return row;
  const why = row.status === from ? 'has passed its expiry time' : `is ${row.status}`;
  throw new SandboxBankError(409, `Consent ${consentId} ${why}: it cannot be made ${wanted}`);
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
        inArray(sandboxBankConsents.status, ['AwaitingAuthorisation', 'Authorised', 'Paused']),
      ),
    );
}

/** The newest consents first, for the sandbox page. */
export function listBankConsents(db: Executor, limit = 100) {
  return db
    .select()
    .from(sandboxBankConsents)
    .orderBy(desc(sandboxBankConsents.creationDateTime))
    .limit(limit);
}
