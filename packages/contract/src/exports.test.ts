import { describe, expect, it } from 'vitest';
import {
  ExportRangeSchema,
  exportFileName,
  financialYearOf,
  financialYearRange,
  isoDateDay,
  isoFromCustomerDate,
} from './exports';

describe('export ranges', () => {
  it('takes real calendar dates only, in the years exports cover', () => {
    expect(isoDateDay('2028-02-29')).not.toBeNull();
    expect(isoDateDay('2027-02-29')).toBeNull();
    expect(isoDateDay('2026-13-01')).toBeNull();
    expect(isoDateDay('2016-12-31')).toBeNull();
    expect(isoDateDay('2026-4-1')).toBeNull();
  });

  it('allows a range of 366 days, both ends included, and no more', () => {
    expect(ExportRangeSchema.safeParse({ from: '2027-04-01', to: '2028-03-31' }).success).toBe(
      true,
    );
    expect(ExportRangeSchema.safeParse({ from: '2026-05-01', to: '2026-05-01' }).success).toBe(
      true,
    );
    const long = ExportRangeSchema.safeParse({ from: '2026-04-01', to: '2027-04-02' });
    expect(long.error?.issues[0]).toMatchObject({ path: ['to'] });
    const backwards = ExportRangeSchema.safeParse({ from: '2026-05-02', to: '2026-05-01' });
    expect(backwards.error?.issues[0]?.message).toBe('must be on or after the start date');
  });

  it('reads the Indian financial year both ways', () => {
    expect(financialYearRange('2026-27')).toEqual({ from: '2026-04-01', to: '2027-03-31' });
    expect(financialYearRange('2099-00')).toEqual({ from: '2099-04-01', to: '2100-03-31' });
    expect(financialYearRange('2026-28')).toBeNull();
    expect(financialYearOf('2027-03-31')).toBe('2026-27');
    expect(financialYearOf('2027-04-01')).toBe('2027-28');
  });

  it('reads a date typed as DD/MM/YYYY', () => {
    expect(isoFromCustomerDate(' 1/4/2026 ')).toBe('2026-04-01');
    expect(isoFromCustomerDate('31/04/2026')).toBeNull();
    expect(isoFromCustomerDate('2026-04-01')).toBeNull();
  });

  it('names a file by kind and range, a whole year of PDFs by the year', () => {
    const year = { from: '2026-04-01', to: '2027-03-31' };
    expect(exportFileName('orders', year)).toBe('orders-2026-04-01-to-2027-03-31.csv');
    expect(exportFileName('tally', year)).toBe('tally-2026-04-01-to-2027-03-31.xml');
    expect(exportFileName('invoice-pdfs', year)).toBe('invoice-pdfs-2026-27.zip');
  });
});
