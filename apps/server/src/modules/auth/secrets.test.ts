import { describe, expect, it } from 'vitest';
import { sameHash } from './secrets';

describe('sameHash', () => {
  it('tells equal and different hashes apart', () => {
    expect(sameHash('a'.repeat(64), 'a'.repeat(64))).toBe(true);
    expect(sameHash('a'.repeat(64), `${'a'.repeat(63)}b`)).toBe(false);
  });

  it('answers false for values of different lengths instead of throwing', () => {
    expect(sameHash('abc', 'abcd')).toBe(false);
    expect(sameHash('', 'a'.repeat(64))).toBe(false);
  });
});
