import { describe, expect, it } from 'vitest';
import { orderAmount, paiseToRupees, rupeesToPaise } from './money';

describe('orderAmount', () => {
  it('adds 18 % GST and 5 % handling to the base', () => {
    expect(orderAmount(100_000)).toEqual({
      basePaise: 100_000,
      gstPaise: 18_000,
      handlingPaise: 5_000,
      totalPaise: 123_000,
    });
  });

  it('rounds each part to the paisa', () => {
    // 18 % of 333 paise is 59.94, 5 % is 16.65
    expect(orderAmount(333)).toMatchObject({ gstPaise: 60, handlingPaise: 17, totalPaise: 410 });
  });

  it('stays exact for large amounts', () => {
    const tenCrore = rupeesToPaise(10_00_00_000);
    expect(orderAmount(tenCrore).totalPaise).toBe(12_30_00_00_000);
  });

  it('refuses fractions of a paisa and negative amounts, and says what it takes', () => {
    const rule = 'base amount must be a non-negative whole number of paise';
    expect(() => orderAmount(10.5)).toThrow(new RangeError(rule));
    expect(() => orderAmount(-1)).toThrow(new RangeError(rule));
  });

  it('takes a base of zero, to which nothing is added', () => {
    expect(orderAmount(0)).toEqual({ basePaise: 0, gstPaise: 0, handlingPaise: 0, totalPaise: 0 });
  });

  it('converts between rupees and paise', () => {
    expect(rupeesToPaise(1999.99)).toBe(199_999);
    expect(paiseToRupees(199_999)).toBe(1999.99);
  });
});
