import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/database';
import { drizzleOptions, openPglite, type Database, type DatabaseHandle } from './client';
import { isDatabaseUnavailable } from '../lib/database-errors';
import { runStatement, type Statement } from './statements';

const sum: Statement = {
  name: 'statements_test_sum',
  text: 'SELECT $1::int + 1 AS n, $2::timestamptz AS at, $3::text AS note',
};
const divide: Statement = { name: 'statements_test_divide', text: 'SELECT 10 / $1::int AS n' };
const probeCount: Statement = {
  name: 'statements_test_probe',
  text: 'SELECT count(*)::int AS n FROM statement_probe',
};

/** The probe's count, read while a transaction that added a row is open, then rolled back. */
async function countReadBesideARolledBackInsert(db: Database) {
  let reading: Promise<{ n: number }[]> | undefined;
  const rolledBack = db
    .transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO statement_probe VALUES (1)`);
      reading = runStatement<{ n: number }>(db, probeCount, []);
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error('rolled back');
    })
    .catch((error: Error) => error.message);
  expect(await rolledBack).toBe('rolled back');
  return reading;
}

// the run's database: PGlite, or PostgreSQL in the PostgreSQL run
describe('runStatement', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.execute(sql`CREATE TABLE statement_probe (n int)`);
  });
  afterAll(() => database.close());

  it('runs a text again and again with other values, in the driver’s own types', async () => {
    const at = new Date('2026-11-27T08:30:15.123Z');
    for (const n of [1, 2, 3]) {
      const rows = await runStatement(database.db, sum, [n, at, null]);
      expect(rows).toEqual([{ n: n + 1, at, note: null }]);
    }
  });

  it('hands a failure to its caller, and runs the next call as usual', async () => {
    await expect(runStatement(database.db, divide, [0])).rejects.toMatchObject({ code: '22012' });
    expect(await runStatement(database.db, divide, [5])).toEqual([{ n: 2 }]);
  });

  it('never reads inside another caller’s open transaction', async () => {
    expect(await countReadBesideARolledBackInsert(database.db)).toEqual([{ n: 0 }]);
  });
});

describe('runStatement on PGlite', () => {
  let database: DatabaseHandle;
  let client: PGlite;
  beforeAll(async () => {
    database = await openPglite();
    client = (database.db as unknown as { $client: PGlite }).$client;
  });
  afterAll(() => database.close());

  it('parses a text once, as a named statement, however often it runs', async () => {
    for (const n of [1, 2, 3, 4]) await runStatement(database.db, sum, [n, new Date(), 'x']);
    const { rows } = await client.query<{ name: string; runs: number }>(
      `SELECT name, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements`,
    );
    expect(rows).toEqual([{ name: sum.name, runs: 4 }]);
  });

  it('runs each text on its generic plan, and leaves the plans of other statements as they were', async () => {
    await runStatement(database.db, divide, [1]);
    await expect(runStatement(database.db, divide, [0])).rejects.toMatchObject({ code: '22012' });
    await runStatement(database.db, divide, [2]);
    const { rows } = await client.query<{ generic: number; custom: number }>(
      `SELECT generic_plans::int AS generic, custom_plans::int AS custom
         FROM pg_prepared_statements WHERE name = $1`,
      [divide.name],
    );
    expect(rows).toEqual([{ generic: 3, custom: 0 }]);
    // after a success and after a failure alike
    const { rows: mode } = await client.query(`SHOW plan_cache_mode`);
    expect(mode).toEqual([{ plan_cache_mode: 'auto' }]);
  });

  it('takes its turn: the event loop runs between two statements', async () => {
    const log: string[] = [];
    const first = runStatement(database.db, divide, [1]).then(() => log.push('first'));
    const second = runStatement(database.db, divide, [2]).then(() => log.push('second'));
    setImmediate(() => log.push('socket read'));
    await Promise.all([first, second]);
    expect(log).toEqual(['first', 'socket read', 'second']);
  });

  it('refuses a call once the PGlite is closed, in the words that say the database is gone', async () => {
    const closing = await openPglite();
    expect(await runStatement(closing.db, divide, [5])).toEqual([{ n: 2 }]);
    await closing.close();
    const refused = await runStatement(closing.db, divide, [5]).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(refused)).toBe(true);
  });

  it('waits for an open transaction on a PGlite that takes no turns, too', async () => {
    const bare = await PGlite.create();
    try {
      const db = drizzle({ client: bare, ...drizzleOptions }) as unknown as Database;
      await db.execute(sql`CREATE TABLE statement_probe (n int)`);
      expect(await countReadBesideARolledBackInsert(db)).toEqual([{ n: 0 }]);
    } finally {
      await bare.close();
    }
  });
});
