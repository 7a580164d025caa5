import type { Clock } from '../lib/clock';

export interface TestClock extends Clock {
  advance(ms: number): void;
  set(date: Date): void;
}

/** A clock that stands still until the test moves it. */
export function createTestClock(start = new Date('2026-06-01T10:00:00.000Z')): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (date) => {
      current = date.getTime();
    },
  };
}
