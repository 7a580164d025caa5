import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import type { Clock } from './clock';
import { AppError } from './errors';

/**
 * Short-lived links that work in a new browser tab, which carries no bearer token: the
 * signature covers the path, the expiry and the customer the link was made for.
 */
export interface SignedLinks {
  /** `${path}?expires=…&sub=…&sig=…` */
  sign(path: string, subject: string, ttlSeconds: number): string;
  /** Returns the subject; refuses an expired or tampered link with 403. */
  verify(path: string, query: { expires?: unknown; sub?: unknown; sig?: unknown }): string;
}

export function createSignedLinks(secret: string, clock: Clock): SignedLinks {
  // a page of orders signs a link for each receipt: the key is made once, not at every link
  const key = createSecretKey(Buffer.from(secret));
  const mac = (path: string, expires: string, subject: string) =>
    createHmac('sha256', key).update(`${path}\n${expires}\n${subject}`).digest('base64url');
  return {
    sign(path, subject, ttlSeconds) {
      const expires = String(Math.floor(clock.now().getTime() / 1000) + ttlSeconds);
      // the expiry is digits and the signature base64url: only the subject needs escaping
      return `${path}?expires=${expires}&sub=${encodeURIComponent(subject)}&sig=${mac(path, expires, subject)}`;
    },
    verify(path, { expires, sub, sig }) {
      if (typeof expires !== 'string' || typeof sub !== 'string' || typeof sig !== 'string') {
        throw new AppError('FORBIDDEN', 'This link is not valid.');
      }
      const expected = Buffer.from(mac(path, expires, sub));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        throw new AppError('FORBIDDEN', 'This link is not valid.');
      }
      if (Number(expires) * 1000 < clock.now().getTime()) {
        throw new AppError('GONE', 'This link has expired. Please open it again from the portal.');
      }
      return sub;
    },
  };
}
