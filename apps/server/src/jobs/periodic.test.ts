import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_RUN_DELAY_MS, startPeriodicJob } from './periodic';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const minute = 60_000;
const quietLog = () => ({ error: vi.fn() });

describe('startPeriodicJob', () => {
  it('runs soon after start, then every interval, until stopped', async () => {
    const run = vi.fn(async () => undefined);
    const job = startPeriodicJob({ name: 'test job', minutes: 60, log: quietLog(), run });
    await vi.advanceTimersByTimeAsync(FIRST_RUN_DELAY_MS - 1);
    expect(run).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60 * minute);
    expect(run).toHaveBeenCalledTimes(2);
    await job.stop();
    await vi.advanceTimersByTimeAsync(3 * 60 * minute);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('does nothing when turned off with 0', async () => {
    const run = vi.fn(async () => undefined);
    const job = startPeriodicJob({ name: 'test job', minutes: 0, log: quietLog(), run });
    await vi.advanceTimersByTimeAsync(24 * 60 * minute);
    expect(run).not.toHaveBeenCalled();
    await job.stop();
  });

  it('never starts a pass while one is running, and stop waits for it', async () => {
    let finish = () => {};
    let finished = false;
    const run = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = () => {
            finished = true;
            resolve();
          };
        }),
    );
    const job = startPeriodicJob({ name: 'test job', minutes: 1, log: quietLog(), run });
    await vi.advanceTimersByTimeAsync(FIRST_RUN_DELAY_MS + 5 * minute);
    expect(run).toHaveBeenCalledTimes(1);
    const stopping = job.stop();
    let stopped = false;
    void stopping.then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(finished).toBe(true);
  });

  it('logs a failed pass and runs the next one as planned', async () => {
    const log = quietLog();
    const run = vi
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(new Error('database away'))
      .mockResolvedValue(undefined);
    const job = startPeriodicJob({ name: 'test job', minutes: 5, log, run });
    await vi.advanceTimersByTimeAsync(FIRST_RUN_DELAY_MS);
    expect(log.error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'test job failed');
    await vi.advanceTimersByTimeAsync(5 * minute);
    expect(run).toHaveBeenCalledTimes(2);
    await job.stop();
  });
});
