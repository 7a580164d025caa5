import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './client';
import { createFairTurns, takeTurnsOn } from './fair-turns';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

/** Two statements asked for at once, and a callback asked for after them that runs between. */
async function expectATurnBetweenStatements(client: PGlite) {
  const log: string[] = [];
  const first = client.query('SELECT 1').then(() => log.push('first'));
  const second = client.query('SELECT 2').then(() => log.push('second'));
  setImmediate(() => log.push('socket read'));
  await Promise.all([first, second]);
  expect(log).toEqual(['first', 'socket read', 'second']);
}

describe('createFairTurns', () => {
  it('runs one job at a time, in the order they were asked for', async () => {
    const take = createFairTurns();
    const log: string[] = [];
    let running = 0;
    const job = (name: string, waits: number) => async () => {
      running += 1;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      for (let i = 0; i < waits; i++) await tick();
      log.push(`end ${name}`);
      running -= 1;
      return name;
    };
    const answers = await Promise.all([take(job('a', 3)), take(job('b', 1)), take(job('c', 2))]);
    expect(answers).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('lets the event loop run between two jobs, even when each ends at once', async () => {
    const take = createFairTurns();
    const log: string[] = [];
    const first = take(async () => log.push('first'));
    const second = take(async () => log.push('second'));
    // asked for after both jobs: it runs before the second, because each turn is a later pass
    setImmediate(() => log.push('socket read'));
    await Promise.all([first, second]);
    expect(log).toEqual(['first', 'socket read', 'second']);
  });

  it('hands a job’s failure to its caller and goes on with the next', async () => {
    const take = createFairTurns();
    const failed = take(async () => {
      throw new Error('no such table');
    });
    const next = take(async () => 'answered');
    await expect(failed).rejects.toThrow('no such table');
    await expect(next).resolves.toBe('answered');
  });
});

describe('takeTurnsOn a PGlite', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = takeTurnsOn(await PGlite.create());
  });
  afterAll(() => client.close());

  it('lets the event loop run between two statements', async () => {
    await expectATurnBetweenStatements(client);
  });

  it('keeps a transaction whole: a statement asked for meanwhile waits for its end', async () => {
    await client.exec('CREATE TABLE turns (n int)');
    const seen: number[] = [];
    const writing = client.transaction(async (tx) => {
      await tx.query('INSERT INTO turns VALUES (1)');
      await tick();
      await tx.query('INSERT INTO turns VALUES (2)');
    });
    const reading = client
      .query<{ n: number }>('SELECT count(*)::int AS n FROM turns')
      .then(({ rows }) => seen.push(rows[0]!.n));
    await Promise.all([writing, reading]);
    expect(seen).toEqual([2]);
  });
});

describe('the portal’s PGlite', () => {
  it('takes turns: the event loop runs between two statements', async () => {
    const handle = await openPglite();
    try {
      const client = (handle.db as unknown as { $client: PGlite }).$client;
      await expectATurnBetweenStatements(client);
    } finally {
      await handle.close();
    }
  });
});
