import { randomBytes } from 'node:crypto';

/** Crockford's base32 without the letters read as digits: a reference read out on the phone. */
const REFERENCE_LETTERS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A request's reference, such as GRV-7Q2K9M4T: its kind, then eight letters. */
export function newReference(kind: 'GRV' | 'COR') {
  const bytes = randomBytes(8);
  return `${kind}-${[...bytes].map((byte) => REFERENCE_LETTERS[byte % 32]).join('')}`;
}
