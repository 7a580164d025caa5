import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { newRecoveryCodes, normaliseRecoveryCode, recoveryCodeHasher } from './recovery-codes';
import { acceptedStep, newSecret } from './totp';

const secret = newSecret();
const at = new Date('2026-06-01T10:00:15.000Z');
const stepOf = (date: Date) => Math.floor(date.getTime() / 30_000);
const codeAt = (date: Date) => generateSync({ secret, epoch: Math.floor(date.getTime() / 1000) });
const shifted = (steps: number) => new Date(at.getTime() + steps * 30_000);

describe('acceptedStep', () => {
  it('answers the time step of the current code and of its neighbours, and null two steps away', async () => {
    for (const steps of [-1, 0, 1]) {
      expect(await acceptedStep(secret, codeAt(shifted(steps)), at, null)).toBe(
        stepOf(shifted(steps)),
      );
    }
    for (const steps of [-3, -2, 2, 3]) {
      expect(await acceptedStep(secret, codeAt(shifted(steps)), at, null)).toBeNull();
    }
  });

  it('refuses the step after which codes are used up, and every earlier one', async () => {
    const code = codeAt(at);
    expect(await acceptedStep(secret, code, at, stepOf(at) - 1)).toBe(stepOf(at));
    expect(await acceptedStep(secret, code, at, stepOf(at))).toBeNull();
    expect(await acceptedStep(secret, code, at, stepOf(at) + 1)).toBeNull();
  });

  it("refuses another secret's code", async () => {
    expect(await acceptedStep(newSecret(), codeAt(at), at, null)).toBeNull();
  });
});

describe('recovery codes', () => {
  it('are ten different codes of two groups of five unambiguous characters', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
  });

  it('are compared without case, spaces or hyphens', () => {
    expect(normaliseRecoveryCode(' AbCde-F GHjk ')).toBe('abcdefghjk');
  });

  it('are hashed under the key: the same code under another key gives another hash', () => {
    const hash = recoveryCodeHasher('a'.repeat(48));
    expect(hash('abcde-fghjk')).toBe(hash('ABCDE FGHJK'));
    expect(hash('abcde-fghjk')).toMatch(/^[0-9a-f]{64}$/);
    expect(hash('abcde-fghjk')).not.toBe(hash('abcde-fghjm'));
    expect(recoveryCodeHasher('b'.repeat(48))('abcde-fghjk')).not.toBe(hash('abcde-fghjk'));
  });

  it('keep the hash of a stored code: a key derived otherwise would refuse every code given out', () => {
    // HKDF-SHA-256 (salt "customer-portal", info "two-factor-recovery-codes-v1"), then HMAC-SHA-256
    expect(recoveryCodeHasher('a'.repeat(48))('abcde-fghjk')).toBe(
      '994bb57da8f6dc55c3cf724fca96518fc5769eb0f874977268d26fec3c6a786f',
    );
  });
});
