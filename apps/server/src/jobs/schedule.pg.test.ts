import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueue } from '../adapters/pg-boss-queue';
import type { Queue } from '../adapters/queue';
import { openPostgres, type DatabaseHandle } from '../db/client';
import { openTestDatabase } from '../test/database';

// Two portal instances on one PostgreSQL database: two pools, two pg-boss starts.
let first: DatabaseHandle;
let second: DatabaseHandle;
beforeAll(async () => {
  first = await openTestDatabase();
  const pool = (first.db as unknown as { $client: pg.Pool }).$client;
  second = await openPostgres(pool.options.connectionString!);
});
afterAll(async () => {
  await second.close();
  await first.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a scheduled job on two instances', () => {
  it('runs once for each due time, not once on each instance', async () => {
    // every instance looks for due schedules each second; the test stays inside one minute, the
    // unit of a cron schedule, so exactly one run is due
    const timing = { cronMonitorIntervalSeconds: 1, cronWorkerIntervalSeconds: 1 };
    const instances: Queue[] = [createQueue(first.db, timing), createQueue(second.db, timing)];
    const secondOfMinute = new Date().getUTCSeconds();
    if (secondOfMinute > 45) await sleep((61 - secondOfMinute) * 1000);
    const runs: number[] = [];
    try {
      for (const [instance, queue] of instances.entries()) {
        await queue.work('auth-purge', async () => runs.push(instance), {
          pollingIntervalSeconds: 0.5,
        });
        await queue.schedule('auth-purge', '* * * * *');
      }
      await sleep(8_000);
      expect(runs).toHaveLength(1);
    } finally {
      await Promise.all(instances.map((queue) => queue.stop()));
    }
  });
});
