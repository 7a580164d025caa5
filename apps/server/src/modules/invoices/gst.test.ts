import { describe, expect, it } from 'vitest';
import { numberInWords, rupeesInWords } from './amount-in-words';
import { financialYearOf } from './gst';

describe('GST rules', () => {
  it('counts financial years from 1 April in IST', () => {
    expect(financialYearOf(new Date('2026-03-31T18:29:59Z'))).toBe('2025-26');
    expect(financialYearOf(new Date('2026-03-31T18:30:00Z'))).toBe('2026-27');
    expect(financialYearOf(new Date('2099-12-31T00:00:00Z'))).toBe('2099-00');
  });
});

describe('amounts in words', () => {
  it('uses Indian numbering', () => {
    expect(numberInWords(0)).toBe('Zero');
    expect(numberInWords(15)).toBe('Fifteen');
    expect(numberInWords(1_00_000)).toBe('One Lakh');
    expect(numberInWords(12_34_56_789)).toBe(
      'Twelve Crore Thirty-Four Lakh Fifty-Six Thousand Seven Hundred Eighty-Nine',
    );
    expect(numberInWords(1_00_00_00_000)).toBe('One Hundred Crore');
    expect(rupeesInWords(1_23_000_00)).toBe('Rupees One Lakh Twenty-Three Thousand Only');
    expect(rupeesInWords(5)).toBe('Rupees Zero and Five Paise Only');
  });

  it('names round tens and the numbers just past them', () => {
    expect(numberInWords(19)).toBe('Nineteen');
    expect(numberInWords(20)).toBe('Twenty');
    expect(numberInWords(21)).toBe('Twenty-One');
    expect(numberInWords(90)).toBe('Ninety');
    expect(numberInWords(120)).toBe('One Hundred Twenty');
    expect(numberInWords(20_000)).toBe('Twenty Thousand');
    expect(numberInWords(20_00_000)).toBe('Twenty Lakh');
    expect(rupeesInWords(7_020_40)).toBe('Rupees Seven Thousand Twenty and Forty Paise Only');
  });

  it('refuses negative and fractional numbers rather than print wrong words', () => {
    const refusal = new RangeError('a non-negative whole number');
    expect(() => numberInWords(-1)).toThrow(refusal);
    expect(() => numberInWords(1.5)).toThrow(refusal);
    expect(() => numberInWords(Number.MAX_SAFE_INTEGER + 1)).toThrow(refusal);
  });
});
