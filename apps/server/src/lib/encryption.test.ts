import { describe, expect, it } from 'vitest';
import { createEncryption, DecryptionError } from './encryption';

const secret = 'k'.repeat(40);

describe('encryption', () => {
  const encryption = createEncryption(secret);

  it('gives back what it encrypted', () => {
    const sealed = encryption.encrypt('access-token-ünïcode-₹', 'consent:1:access');
    expect(sealed).not.toContain('access-token');
    expect(encryption.decrypt(sealed, 'consent:1:access')).toBe('access-token-ünïcode-₹');
  });

  it('never produces the same ciphertext twice for the same value', () => {
    expect(encryption.encrypt('same', 'a')).not.toBe(encryption.encrypt('same', 'a'));
  });

  it('detects a changed byte in the ciphertext', () => {
    const sealed = encryption.encrypt('secret value', 'a');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 0x01;
    parts[3] = body.toString('base64url');
    expect(() => encryption.decrypt(parts.join('.'), 'a')).toThrow(DecryptionError);
  });

  it('detects a changed authentication tag', () => {
    const parts = encryption.encrypt('secret value', 'a').split('.');
    const tag = Buffer.from(parts[2]!, 'base64url');
    tag[5] = tag[5]! ^ 0xff;
    parts[2] = tag.toString('base64url');
    expect(() => encryption.decrypt(parts.join('.'), 'a')).toThrow(DecryptionError);
  });

  it('refuses a value moved to another record', () => {
    const sealed = encryption.encrypt('secret value', 'consent:1:access');
    expect(() => encryption.decrypt(sealed, 'consent:2:access')).toThrow(DecryptionError);
  });

  it('refuses a value encrypted with another key', () => {
    const sealed = createEncryption('z'.repeat(40)).encrypt('secret value', 'a');
    expect(() => encryption.decrypt(sealed, 'a')).toThrow(DecryptionError);
  });

  it('refuses something that is not a sealed value', () => {
    expect(() => encryption.decrypt('plain text', 'a')).toThrow(DecryptionError);
    expect(() => encryption.decrypt('v1.a.b', 'a')).toThrow(DecryptionError);
  });

  it('refuses a short secret', () => {
    expect(() => createEncryption('short')).toThrow();
  });
});
