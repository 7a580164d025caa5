import { describe, expect, it } from 'vitest';
import { customerDate, customerDateTime } from './dates';

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
