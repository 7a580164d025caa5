import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { partners, type Partner } from './schema';

const KEY_PREFIX = 'ptk_';
const ID_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** A key has 256 random bits, so one SHA-256 is enough to store it: nothing to brute-force. */
export const hashApiKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

export function newApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

function newPartnerId(): string {
  const bytes = randomBytes(8);
  return `PTN-${Array.from(bytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('')}`;
}

/** Makes a partner with a fresh key; the key is in the answer and nowhere else, ever. */
export async function createPartner(
  db: Executor,
  clock: Clock,
  input: { name: string; partnerId?: string },
): Promise<{ partner: Partner; apiKey: string }> {
  const name = input.name.trim();
  if (!name || name.length > 120)
    throw new AppError('BAD_REQUEST', 'name must be 1 to 120 characters');
  const partnerId = input.partnerId?.trim() || newPartnerId();
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{2,39}$/.test(partnerId)) {
    throw new AppError('BAD_REQUEST', 'partner id must be 3 to 40 letters, digits, - or _');
  }
  const [existing] = await db.select().from(partners).where(eq(partners.partnerId, partnerId));
  if (existing) throw new AppError('CONFLICT', `A partner ${partnerId} already exists`);
  const apiKey = newApiKey();
  const [partner] = await db
    .insert(partners)
    .values({
      partnerId,
      name,
      apiKeyHash: hashApiKey(apiKey),
      apiKeyPrefix: apiKey.slice(0, KEY_PREFIX.length + 6),
      createdAt: clock.now(),
    })
    .returning();
  return { partner: partner!, apiKey };
}

export function listPartners(db: Executor) {
  return db.select().from(partners).orderBy(asc(partners.createdAt), asc(partners.partnerId));
}

export async function findPartnerByPublicId(db: Executor, partnerId: string) {
  const [partner] = await db.select().from(partners).where(eq(partners.partnerId, partnerId));
  return partner ?? null;
}

/** Refuses the partner's key from now on; its consents stay with the customers. */
export async function revokePartner(db: Executor, clock: Clock, partnerId: string) {
  const [partner] = await db
    .update(partners)
    .set({ revokedAt: clock.now() })
    .where(and(eq(partners.partnerId, partnerId), isNull(partners.revokedAt)))
    .returning();
  if (partner) return partner;
  const existing = await findPartnerByPublicId(db, partnerId);
  if (!existing) throw new AppError('NOT_FOUND', `No partner ${partnerId}`);
  return existing;
}

/** The partner a key belongs to, or null for an unknown or revoked key. */
export async function partnerForApiKey(
  db: Executor,
  clock: Clock,
  apiKey: string,
): Promise<Partner | null> {
  if (!apiKey.startsWith(KEY_PREFIX) || apiKey.length > 200) return null;
  const [partner] = await db
    .update(partners)
    .set({ lastUsedAt: clock.now() })
    .where(and(eq(partners.apiKeyHash, hashApiKey(apiKey)), isNull(partners.revokedAt)))
    .returning();
  return partner ?? null;
}
