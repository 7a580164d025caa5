import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatInr, formatInrWhole, formatNumber, formatOneDecimal, formatPaise } from './numbers';

const formats = [
  { name: 'formatNumber', format: formatNumber, intl: new Intl.NumberFormat('en-IN') },
  {
    name: 'formatOneDecimal',
    format: formatOneDecimal,
    intl: new Intl.NumberFormat('en-IN', { maximumFractionDigits: 1 }),
  },
  {
    name: 'formatInr',
    format: formatInr,
    intl: new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }),
  },
  {
    name: 'formatInrWhole',
    format: formatInrWhole,
    intl: new Intl.NumberFormat('en-IN', {
      style: 'currency',
      currency: 'INR',
      maximumFractionDigits: 0,
      minimumFractionDigits: 0,
    }),
  },
];

// amounts as the portal holds them (paise over 100), halves at every rounding place, and any double
const paise = fc.integer({ min: -1e15, max: 1e15 }).map((p) => p / 100);
const halves = fc
  .tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(1, 10, 100, 1000, 10000))
  .map(([n, scale]) => (n + 0.5) / scale);
const anyNumber = fc.oneof(paise, halves, fc.double(), fc.integer());

describe.each(formats)('$name', ({ format, intl }) => {
  it("writes every number as Intl's en-IN formatter does", () => {
    fc.assert(
      fc.property(anyNumber, (value) => {
        expect(format(value)).toBe(intl.format(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with Intl on the edges: zeros, roundings to zero, halves, exponents, infinities', () => {
    for (const value of [
      0,
      -0,
      0.0004,
      -0.0004,
      0.005,
      -0.005,
      0.05,
      0.5,
      1.005,
      2.5,
      -2.5,
      999.9996,
      99_999.95,
      1e-7,
      1e21,
      123456789012345680000,
      Number.MAX_SAFE_INTEGER,
      NaN,
      Infinity,
      -Infinity,
    ]) {
      expect(format(value), String(value)).toBe(intl.format(value));
    }
  });
});

describe('en-IN grouping', () => {
  it('groups the last three digits, then pairs: lakhs and crores', () => {
    expect(formatNumber(12_345_678.9)).toBe('1,23,45,678.9');
    expect(formatNumber(1000)).toBe('1,000');
    expect(formatInr(123_456.78)).toBe('₹1,23,456.78');
    expect(formatInr(-1234.5)).toBe('-₹1,234.50');
    expect(formatInrWhole(123_456.5)).toBe('₹1,23,457');
    expect(formatOneDecimal(3.14159)).toBe('3.1');
  });

  it('rounds the shortest decimal of the number, as Intl does, not its binary value', () => {
    expect((1.005).toFixed(2)).toBe('1.00');
    expect(formatInr(1.005)).toBe('₹1.01');
  });
});

describe('formatPaise', () => {
  it('shows an amount kept in paise as rupees to the paisa', () => {
    expect(formatPaise(118_000)).toBe('₹1,180.00');
    expect(formatPaise(1)).toBe('₹0.01');
    expect(formatPaise(12_345_678_901)).toBe('₹12,34,56,789.01');
    expect(formatPaise(-50)).toBe('-₹0.50');
  });
});
