/**
 * The cron schedule (UTC) of a job set to run every `minutes` (above 0, at most 1440), for
 * pg-boss, whose schedules are cron with minute resolution; a fraction is rounded to whole
 * minutes, at least 1:
 * - 1 to 59: at every minute of the hour divisible by `minutes` (`*\/15 * * * *`): exactly every
 *   `minutes` when it divides 60 (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30), otherwise the last run of
 *   each hour is followed sooner by the one on the hour;
 * - 60 to 1439: on the hour, every `minutes` rounded down to whole hours (`0 *\/2 * * *`);
 * - 1440: once a day at midnight UTC.
 */
export function cronEvery(minutes: number): string {
  if (!(minutes > 0 && minutes <= 1440)) {
    throw new RangeError(`A job runs every 1 to 1440 minutes, not ${minutes}`);
  }
  minutes = Math.max(1, Math.round(minutes));
  if (minutes < 60) return `*/${minutes} * * * *`;
  if (minutes < 1440) return `0 */${Math.floor(minutes / 60)} * * *`;
  return '0 0 * * *';
}
