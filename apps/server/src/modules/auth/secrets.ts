import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { VERIFICATION_CODE_LENGTH } from '@portal/contract';

/** An opaque 256-bit token for a cookie, a link or a pending sign-in. */
export const randomToken = () => randomBytes(32).toString('base64url');

/** SHA-256 suffices for 256-bit random tokens: nothing to guess, so no slow hash is needed. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A uniformly drawn code with leading zeros kept. */
export const randomCode = () =>
  String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, '0');

/** Binds a code to its challenge, so that a code never fits another sign-in. */
export const codeHash = (challengeId: string, code: string) => sha256(`${challengeId}:${code}`);

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
