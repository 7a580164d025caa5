import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { expect, it } from 'vitest';
import { postgresTestServerUrl } from '../test/database';
import { openPostgres } from './client';

it('answers close() only once every connection of the pool has closed', async () => {
  const handle = await openPostgres(postgresTestServerUrl()!);
  const pool = (handle.db as unknown as { $client: pg.Pool }).$client;
  await Promise.all([1, 2, 3].map(() => handle.db.execute(sql`SELECT pg_sleep(0.05)`)));
  expect(pool.totalCount).toBe(3);
  let closed = 0;
  pool.on('remove', () => {
    closed += 1;
  });
  await handle.close();
  expect(closed).toBe(3);
});
