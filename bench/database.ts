/** The databases the bench measures on: a fresh one on a PostgreSQL server, or PGlite in a folder. */
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client';
import { installQueue } from '../apps/server/src/adapters/queue-install';
import { seed, type SeedPlan } from './seed';

async function admin(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new database on the PostgreSQL server at `serverUrl`, and a way to drop it again. */
export async function freshPostgresDatabase(serverUrl: string) {
  const name = `portal_bench_${Date.now()}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(serverUrl, `DROP DATABASE ${name} WITH (FORCE)`),
  };
}

/**
 * Migrates with the portal's own migrations and seeds. `DATABASE_URL` unset: PGlite under
 * `DATA_DIR`, closed again before the portal opens it.
 */
export async function prepareDatabase(
  where: { DATABASE_URL?: string; DATA_DIR: string },
  plan: SeedPlan,
) {
  const database = await openDatabase(where);
  try {
    await database.migrate(installQueue);
    await seed(database.db, plan);
  } finally {
    await database.close();
  }
}
