import { createHmac, hkdfSync, randomInt } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { RECOVERY_CODE_COUNT } from '@portal/contract';
import type { Executor } from '../../db/client';
import { twoFactorRecoveryCodes } from './schema';

// Crockford's base32 without I, L, O and U: nothing to misread when typed from paper.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const GROUP = 5;

/** Ten characters of 32: 50 random bits each, shown as `xxxxx-xxxxx`. */
function oneCode(): string {
  let code = '';
  for (let i = 0; i < GROUP * 2; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, GROUP)}-${code.slice(GROUP)}`;
}

export function newRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(oneCode());
  return [...codes];
}

/** Case, spaces and hyphens as typed do not matter. */
export const normaliseRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/**
 * A keyed hash, not argon2 (decision 036): the codes are 50 random bits, beyond any guessing that
 * a slow hash would slow further, and a key kept outside the database makes a leaked table
 * useless on its own; the hash is looked up directly, so that one statement uses a code once.
 */
export function recoveryCodeHasher(serverSecret: string) {
  const key = Buffer.from(
    hkdfSync('sha256', serverSecret, 'customer-portal', 'two-factor-recovery-codes-v1', 32),
  );
  return (code: string) =>
    createHmac('sha256', key).update(normaliseRecoveryCode(code)).digest('hex');
}

/** A new set of codes in place of any earlier one; answers the codes, to be shown once. */
export async function replaceRecoveryCodes(
  tx: Executor,
  hash: (code: string) => string,
  customerId: string,
  now: Date,
): Promise<string[]> {
  const codes = newRecoveryCodes();
  await dropRecoveryCodes(tx, customerId);
  await tx
    .insert(twoFactorRecoveryCodes)
    .values(codes.map((code) => ({ customerId, codeHash: hash(code), createdAt: now })));
  return codes;
}

export const dropRecoveryCodes = (tx: Executor, customerId: string) =>
  tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.customerId, customerId));

export async function recoveryCodesLeft(db: Executor, customerId: string): Promise<number> {
  const unused = await db
    .select(
      // Stryker disable next-line ObjectLiteral: only the number of rows is read; a select of no columns answers the same rows
      { id: twoFactorRecoveryCodes.id },
    )
    .from(twoFactorRecoveryCodes)
    .where(
      and(eq(twoFactorRecoveryCodes.customerId, customerId), isNull(twoFactorRecoveryCodes.usedAt)),
    );
  return unused.length;
}
