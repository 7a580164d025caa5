import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatInr,
  formatOrderRef,
  formatYear,
  isPast,
} from './format';

// a browser set to UTC, from before the formatters are made: the Indian date must still show
vi.hoisted(() => vi.stubEnv('TZ', 'UTC'));
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('formatDate', () => {
  it('shows the date in Asia/Kolkata for an instant that is still the day before in UTC', () => {
    expect(new Date('2027-01-22T20:00:00.000Z').getDate()).toBe(22);
    expect(formatDate('2027-01-22T20:00:00.000Z')).toBe('23/01/2027');
  });

  it('pads day and month with a zero', () => {
    expect(formatDate('2027-01-05T04:44:00.000Z')).toBe('05/01/2027');
  });

  it('says N/A, or the given fallback, for a missing or unreadable date', () => {
    expect(formatDate(null)).toBe('N/A');
    expect(formatDate('')).toBe('N/A');
    expect(formatDate('not a date', 'Not specified')).toBe('Not specified');
  });
});

describe('formatDateTime', () => {
  it('adds the time of day on a 24-hour clock, in Asia/Kolkata', () => {
    expect(formatDateTime('2027-01-05T04:44:00.000Z')).toBe('05/01/2027, 10:14');
    expect(formatDateTime('2027-01-22T20:00:00.000Z')).toBe('23/01/2027, 01:30');
  });
});

describe('formatYear', () => {
  it("gives the Indian year of an instant that is still New Year's Eve in UTC", () => {
    expect(formatYear('2026-12-31T20:00:00.000Z')).toBe('2027');
    expect(formatYear(undefined)).toBeNull();
  });
});

describe('formatOrderRef', () => {
  it('names an order by # and the first six characters of its id, in capitals', () => {
    expect(formatOrderRef('4fa65d2e-9c1b-4e7a-8d3f-0a1b2c3d4e5f')).toBe('#4FA65D');
  });
});

describe('isPast', () => {
  const now = new Date('2027-01-05T10:00:00.000Z');

  it('tells a passed instant from one still to come', () => {
    expect(isPast('2027-01-05T09:59:59.000Z', now)).toBe(true);
    expect(isPast('2027-01-05T10:00:01.000Z', now)).toBe(false);
  });

  it('treats a missing instant as not passed', () => {
    expect(isPast(null, now)).toBe(false);
  });
});

describe('formatInr', () => {
  it('groups rupees the Indian way', () => {
    expect(formatInr(123456)).toBe('₹1,23,456.00');
  });
});
