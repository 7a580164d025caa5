import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { inject } from 'vitest';
import {
  drizzleOptions,
  endPool,
  openPglite,
  openPostgres,
  type Database,
  type DatabaseHandle,
} from '../db/client';
import { migratedPgliteImage } from './migrated-databases';
import { installQueue } from '../adapters/queue-install';

let migratedImage: Promise<Blob> | undefined;

/**
 * The migrated PGlite image: the run's file (test/migrated-databases.ts), read once per test file,
 * or, where a run has no global set-up (mutation testing), made here once per test file.
 */
async function pgliteImage(): Promise<Blob> {
  const file = inject('pgliteImage');
  migratedImage ??= file
    ? readFile(file).then((bytes) => new Blob([bytes]))
    : migratedPgliteImage();
  return migratedImage;
}

/**
 * The PostgreSQL server of the PostgreSQL run (`npm run test:pg` sets TEST_DB=postgres), so that
 * the ordinary run stays on PGlite even where TEST_DATABASE_URL is set, as in CI.
 */
export function postgresTestServerUrl(): string | undefined {
  return process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
}

/**
 * A fresh, migrated database: in-memory PGlite, or in the PostgreSQL run a new database on that
 * server, dropped again on close.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = postgresTestServerUrl();
  if (!serverUrl) return openPglite(undefined, await pgliteImage());

  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  // the run's migrated template (test/migrated-databases.ts), when the run has one
  const template = inject('postgresTemplate');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString());
  if (!template) await handle.migrate(installQueue);
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** A TCP port on 127.0.0.1 that nothing listens on at the moment it is answered. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A database the app cannot reach, through the real driver of the run: PGlite already closed,
 * or node-postgres pointed at a port where no server listens.
 */
export async function openUnreachableDatabase(): Promise<DatabaseHandle> {
  if (!postgresTestServerUrl()) {
    const handle = await openPglite(undefined, await pgliteImage());
    await handle.close();
    return { ...handle, close: async () => undefined };
  }
  return openPostgres(`postgres://portal:portal@127.0.0.1:${await freePort()}/portal`);
}

/** How PostgreSQL has run a prepared statement on a connection: plans made for any values, or for the call's. */
export interface PreparedPlans {
  generic: number;
  custom: number;
}

/**
 * How many calls of a prepared statement PostgreSQL plans for the call's values before it may
 * settle on one plan for any values (plancache.c).
 */
export const CUSTOM_PLANS_FIRST = 5;

/**
 * The PostgreSQL database of `db` through one connection only, and how that connection has
 * planned each of its prepared statements (pg_prepared_statements): a statement that PostgreSQL
 * keeps one plan for has generic plans, one it plans anew at every call only custom ones.
 */
export function onOneConnection(db: Database) {
  const { options } = (db as unknown as { $client: pg.Pool }).$client;
  const pool = new pg.Pool({ ...options, max: 1 });
  return {
    db: drizzlePg({ client: pool, ...drizzleOptions }) as unknown as Database,
    async plans(): Promise<Map<string, PreparedPlans>> {
      const { rows } = await pool.query<{ name: string; generic: string; custom: string }>(
        'SELECT name, generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements',
      );
      return new Map(
        rows.map((row) => [row.name, { generic: Number(row.generic), custom: Number(row.custom) }]),
      );
    },
    /**
     * EXPLAIN ANALYZE of a prepared statement of this connection, run with `values`: the plan
     * it keeps for any values, once it keeps one.
     */
    async keptPlan(name: string, values: string[]): Promise<unknown> {
      const client = await pool.connect();
      try {
        const literals = values.map((value) => client.escapeLiteral(value)).join(', ');
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: unknown }] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${client.escapeIdentifier(name)}(${literals})`,
        );
        return rows[0]!['QUERY PLAN'][0].Plan;
      } finally {
        client.release();
      }
    },
    // the test database is dropped next: a connection still closing would be cut off, and its
    // error would reach a pool with no one listening
    close: () => endPool(pool),
  };
}

/**
 * Runs `race` with `deps.db` changed so that its first `count` transactions wait until all of
 * them have been asked for: the requests' reads before their transactions (a code checked, a
 * password hashed) all happen first, and they meet at the statements that must pick one winner.
 */
export async function meetingAtTransaction<T>(
  deps: { db: Database },
  count: number,
  race: () => Promise<T>,
): Promise<T> {
  const db = deps.db;
  let arrived = 0;
  let all!: () => void;
  const together = new Promise<void>((resolve) => (all = resolve));
  deps.db = new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'transaction') return Reflect.get(target, property, receiver);
      return async (...args: Parameters<Database['transaction']>) => {
        arrived += 1;
        if (arrived === count) all();
        if (arrived <= count) await together;
        return target.transaction(...args);
      };
    },
  });
  try {
    return await race();
  } finally {
    deps.db = db;
  }
}
