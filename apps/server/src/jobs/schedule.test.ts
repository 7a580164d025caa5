import { describe, expect, it } from 'vitest';
import { cronEvery } from './schedule';

describe('cronEvery', () => {
  it('runs at the minutes of the hour divisible by a setting under an hour', () => {
    expect(cronEvery(1)).toBe('*/1 * * * *');
    expect(cronEvery(5)).toBe('*/5 * * * *');
    expect(cronEvery(15)).toBe('*/15 * * * *');
    expect(cronEvery(59)).toBe('*/59 * * * *');
  });

  it('rounds a fraction to whole minutes, at least one', () => {
    expect(cronEvery(0.2)).toBe('*/1 * * * *');
    expect(cronEvery(2.5)).toBe('*/3 * * * *');
    expect(cronEvery(14.4)).toBe('*/14 * * * *');
  });

  it('runs on the hour for an hour or more, rounded down to whole hours, and daily at 1440', () => {
    expect(cronEvery(60)).toBe('0 */1 * * *');
    expect(cronEvery(90)).toBe('0 */1 * * *');
    expect(cronEvery(120)).toBe('0 */2 * * *');
    expect(cronEvery(1439)).toBe('0 */23 * * *');
    expect(cronEvery(1440)).toBe('0 0 * * *');
  });

  it('refuses what is no number of minutes it can run at', () => {
    for (const minutes of [0, -5, 1441, Number.NaN]) {
      expect(() => cronEvery(minutes)).toThrow(RangeError);
    }
  });
});
