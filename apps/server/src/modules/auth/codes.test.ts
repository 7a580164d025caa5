import { decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../test/clock';
import { createAccessTokens } from './access-token';
import { codeHash, randomCode } from './secrets';

describe('verification codes', () => {
  it('are six digits every time, leading zeros kept', () => {
    // one code in ten is below 100000: in 2,000 draws some certainly are
    const codes = Array.from({ length: 2000 }, randomCode);
    expect(codes.filter((code) => !/^\d{6}$/.test(code))).toEqual([]);
    expect(codes.some((code) => code.startsWith('0'))).toBe(true);
  });

  it('hash differently for another code and for another sign-in', () => {
    const challenge = 'c0ffee00-0000-4000-8000-000000000001';
    const other = 'c0ffee00-0000-4000-8000-000000000002';
    expect(codeHash(challenge, '123456')).toBe(codeHash(challenge, '123456'));
    expect(codeHash(challenge, '123456')).not.toBe(codeHash(challenge, '123457'));
    expect(codeHash(challenge, '123456')).not.toBe(codeHash(other, '123456'));
  });
});

describe('access tokens as issued', () => {
  it('carry the standard header: HS256 and type JWT', async () => {
    const tokens = createAccessTokens(
      'codes-test-secret-'.padEnd(48, 'k'),
      createTestClock(new Date()),
    );
    const token = await tokens.sign({
      customerId: 'c0ffee00-0000-4000-8000-000000000001',
      sessionId: 'c0ffee00-0000-4000-8000-000000000003',
    });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
  });
});
