import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CUSTOMER_DATE_FORMATS, customerDate, customerDateTime, customerYear } from './dates';

describe('customerDate', () => {
  it('zero-pads day and month', () => {
    expect(customerDate(new Date('2027-01-05T06:00:00Z'))).toBe('05/01/2027');
  });

  it('gives the date in India for an instant still on the day before in UTC', () => {
    expect(customerDate(new Date('2026-11-22T20:00:00Z'))).toBe('23/11/2026');
  });
});

describe('customerDateTime', () => {
  it('gives the date and the 24-hour time in India, zero-padded', () => {
    expect(customerDateTime(new Date('2027-01-05T03:14:00Z'))).toBe('05/01/2027, 08:44');
    expect(customerDateTime(new Date('2026-11-22T20:00:00Z'))).toBe('23/11/2026, 01:30');
  });
});

describe('the Indian date and time without Intl', () => {
  const intl = {
    date: new Intl.DateTimeFormat('en-IN', CUSTOMER_DATE_FORMATS.date),
    dateTime: new Intl.DateTimeFormat('en-IN', CUSTOMER_DATE_FORMATS.dateTime),
    year: new Intl.DateTimeFormat('en-IN', CUSTOMER_DATE_FORMATS.year),
  };
  const expectAsIntl = (date: Date) => {
    expect(customerDate(date), date.toISOString()).toBe(intl.date.format(date));
    expect(customerDateTime(date), date.toISOString()).toBe(intl.dateTime.format(date));
    expect(customerYear(date), date.toISOString()).toBe(intl.year.format(date));
  };

  it("writes every instant as Intl's formatter for Asia/Kolkata does", () => {
    // the portal's own years, densely, and every instant a Date can hold
    const portalYears = fc.date({
      min: new Date('1990-01-01T00:00:00Z'),
      max: new Date('2200-01-01T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(fc.property(fc.oneof(portalYears, fc.date({ noInvalidDate: true })), expectAsIntl), {
      numRuns: 20_000,
    });
  });

  it('agrees with Intl either side of midnight in India and of where Intl takes over', () => {
    for (const instant of [
      '2026-11-22T18:29:59.999Z',
      '2026-11-22T18:30:00.000Z',
      '2026-12-31T18:30:00.000Z',
      '2028-02-28T18:30:00.000Z',
      '1942-09-01T00:00:00.000Z',
      '1945-12-31T23:59:59.999Z',
      '1946-01-01T00:00:00.000Z',
      '9999-12-31T18:29:59.999Z',
      '9999-12-31T18:30:00.000Z',
    ]) {
      expectAsIntl(new Date(instant));
    }
  });

  it('throws for an invalid date, as Intl does', () => {
    const invalid = new Date(Number.NaN);
    expect(() => customerDate(invalid)).toThrow(RangeError);
    expect(() => customerDateTime(invalid)).toThrow(RangeError);
    expect(() => customerYear(invalid)).toThrow(RangeError);
    expect(() => intl.date.format(invalid)).toThrow(RangeError);
  });
});
