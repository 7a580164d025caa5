import { randomBytes } from 'node:crypto';

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 22 characters of 62: about 131 random bits, so holding the id is the checkout's only key. */
export const SANDBOX_ID_LENGTH = 22;

/** Alphanumeric like Razorpay's ids; bytes past 247 (4 × 62 - 1) are skipped to keep it uniform. */
export function randomId(prefix: string): string {
  let id = '';
  while (id.length < SANDBOX_ID_LENGTH) {
    for (const byte of randomBytes(SANDBOX_ID_LENGTH)) {
      if (byte < 248 && id.length < SANDBOX_ID_LENGTH) id += ALPHANUMERIC[byte % 62];
    }
  }
  return `${prefix}_${id}`;
}
