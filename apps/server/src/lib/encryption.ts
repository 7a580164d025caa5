import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts values that must be read back (provider tokens) with AES-256-GCM. The associated data
 * binds a ciphertext to the record and field it belongs to, so a value copied into another
 * row fails to decrypt instead of leaking through it.
 */
export interface Encryption {
  encrypt(plaintext: string, associatedData: string): string;
  /** Throws DecryptionError on a wrong key, a tampered value or the wrong associated data. */
  decrypt(ciphertext: string, associatedData: string): string;
}

export class DecryptionError extends Error {}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Any secret of at least 32 characters; HKDF turns it into the 256-bit key. */
export function createEncryption(secret: string): Encryption {
  if (secret.length < 32) throw new Error('the encryption secret must be at least 32 characters');
  const key = Buffer.from(hkdfSync('sha256', secret, 'customer-portal', 'data-encryption-v1', 32));
  return {
    encrypt(plaintext, associatedData) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv, tag, body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    decrypt(ciphertext, associatedData) {
      const [version, iv, tag, body, ...rest] = ciphertext.split('.');
      if (version !== VERSION || !iv || !tag || body === undefined || rest.length > 0) {
        throw new DecryptionError('not an encrypted value');
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(associatedData, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(body, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new DecryptionError('the value was altered or encrypted with another key');
      }
    },
  };
}
