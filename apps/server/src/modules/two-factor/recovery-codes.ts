import { createHmac, hkdfSync, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@portal/contract';

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
