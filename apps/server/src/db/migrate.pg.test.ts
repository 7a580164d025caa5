import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { openPostgres } from './client';
import { installQueue } from '../adapters/queue-install';

import { postgresTestServerUrl } from '../test/database';

// A *.pg.test.ts file runs only in the PostgreSQL run (npm run test:pg, CI).
const serverUrl = postgresTestServerUrl();

describe('PostgreSQL migrations', () => {
  const name = `portal_migrate_${randomBytes(6).toString('hex')}`;
  const admin = () => new pg.Client({ connectionString: serverUrl });

  afterAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });

  it('open connections with the JIT compiler off, as the short OLTP statements want', async () => {
    const instance = await openPostgres(serverUrl!);
    try {
      const answers = await Promise.all(
        [1, 2, 3].map(
          async () => (await instance.db.execute(sql`SHOW jit`)) as { rows: { jit: string }[] },
        ),
      );
      expect(answers.map((answer) => answer.rows[0]?.jit)).toEqual(['off', 'off', 'off']);
    } finally {
      await instance.close();
    }
  });

  it('run once when several instances start at the same moment', async () => {
    const client = admin();
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    const instances = await Promise.all([1, 2, 3].map(() => openPostgres(url.toString())));
    try {
      await Promise.all(instances.map((instance) => instance.migrate(installQueue)));
      const check = new pg.Client({ connectionString: url.toString() });
      await check.connect();
      const applied = await check.query(
        'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
      );
      await check.end();
      expect(applied.rows[0]).toEqual({ n: journalEntries() });
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
  });
});

/** How many migrations the project has, from drizzle-kit's journal. */
function journalEntries(): number {
  const journal = JSON.parse(
    readFileSync(new URL('./migrations/meta/_journal.json', import.meta.url), 'utf8'),
  ) as { entries: unknown[] };
  return journal.entries.length;
}
