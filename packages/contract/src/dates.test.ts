import { describe, expect, it } from 'vitest';
import { customerDate } from './dates';

describe('customerDate', () => {
  it('zero-pads day and month', () => {
    expect(customerDate(new Date('2027-01-05T06:00:00Z'))).toBe('05/01/2027');
  });

  it('gives the date in India for an instant still on the day before in UTC', () => {
    expect(customerDate(new Date('2026-11-22T20:00:00Z'))).toBe('23/11/2026');
  });
});
