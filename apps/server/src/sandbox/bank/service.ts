import { randomBytes } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { sandboxBankConsents, type SandboxBankConsent } from './schema';

export const BANK_STATUSES = [
  'AwaitingAuthorisation',
  'Authorised',
  'Rejected',
  'Revoked',
] as const;
export type BankStatus = (typeof BANK_STATUSES)[number];

const DAY_MS = 24 * 60 * 60 * 1000;
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
  const [row] = await db
    .insert(sandboxBankConsents)
    .values({
      consentId: newConsentId(),
      clientId: input.clientId,
      status: 'AwaitingAuthorisation',
      permissions: [...new Set(input.permissions)],
      expirationDateTime: expiry,
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

/** The newest consents first, for the sandbox page. */
export function listBankConsents(db: Executor, limit = 100) {
  return db
    .select()
    .from(sandboxBankConsents)
    .orderBy(desc(sandboxBankConsents.creationDateTime))
    .limit(limit);
}
