import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { takeTurnsOn } from './fair-turns';
import * as schema from './schema';

export type Schema = typeof schema;
/** One type for both drivers: services never know which database they run on. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; the same query API as Database. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Either the database or an open transaction, for helpers that run inside both. */
export type Executor = Database | Transaction;

export const MIGRATIONS_FOLDER = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'migrations',
);

/**
 * Runs SQL text with `$1…$n` values outside Drizzle, on the database's own client: the shape
 * pg-boss asks for. Text without values may hold several statements.
 */
export interface SqlRunner {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** The SQL runner of a database opened here, by the client under its Drizzle instance. */
export function sqlRunner(db: Database): SqlRunner {
  const client = (db as unknown as { $client: PGlite | pg.Pool }).$client;
  if (client instanceof PGlite) {
    return {
      async executeSql(text, values) {
        // PGlite's extended protocol takes one statement; its simple one takes no values
        if (!values?.length) return (await client.exec(text)).at(-1) ?? { rows: [] };
        return client.query(
          text,
          values.map((value) => value ?? null),
        );
      },
    };
  }
  return { executeSql: (text, values) => client.query(text, values) };
}

/**
 * What a migration installs after the tables, under the same lock: the queue's tables, which
 * the queue's adapter owns (the client knows nothing of it).
 */
export type AfterMigrations = (runner: SqlRunner) => Promise<void>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(after: AfterMigrations): Promise<void>;
  close(): Promise<void>;
}

export const drizzleOptions = { schema, casing: 'snake_case' } as const;

export class DatabaseInUseError extends Error {}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * PGlite is single-process: a second process opening the same folder would corrupt it. The
 * lock file names the process that has it open; a lock left by a dead process is taken over.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockFile = path.join(dataDir, 'portal.lock');
  const holder = Number(await readFile(lockFile, 'utf8').catch(() => ''));
  if (holder && holder !== process.pid && isRunning(holder)) {
    throw new DatabaseInUseError(
      `The embedded database in ${dataDir} is in use by process ${holder} (the running portal). ` +
        'Stop it first, or set DATABASE_URL to use PostgreSQL, which allows several processes.',
    );
  }
  await writeFile(lockFile, String(process.pid));
  return () => rm(lockFile, { force: true });
}

/**
 * What the planner is told a page read out of order costs, against 1 for a page read in order,
 * on both databases. The portal's tables are read from memory or SSD, where the two cost about
 * the same; at PostgreSQL's default of 4, for disks that seek, the plan kept for orders history
 * read all of a customer's orders and sorted them instead of reading a page off the index in
 * order (docs/decisions/054-random-page-cost-for-memory-and-ssd.md).
 */
const RANDOM_PAGE_COST = '1.1';

/** PGlite in `dataDir` (or in memory when `dataDir` is undefined). */
export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<DatabaseHandle> {
  let unlock = async () => {};
  if (dataDir) {
    await mkdir(dataDir, { recursive: true });
    unlock = await lockDataDir(dataDir);
  }
  const client = takeTurnsOn(await PGlite.create(dataDir, loadDataDir ? { loadDataDir } : {}));
  // its one session is the portal's: set once, as each pooled PostgreSQL connection is
  await client.exec(`SET random_page_cost = ${RANDOM_PAGE_COST}`);
  const db = drizzlePglite({ client, ...drizzleOptions });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    async migrate(after) {
      await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
      await after(sqlRunner(db as unknown as Database));
    },
    async close() {
      await client.close();
      await unlock();
    },
  };
}

/** Any fixed number; the same on every instance. */
const MIGRATION_LOCK_KEY = 7_241_031;

/**
 * How long a request waits for a connection (a new one, or a free one from the pool) before it
 * fails with a 503: a database that does not answer must not hold requests for ever.
 */
const CONNECT_TIMEOUT_MS = 5_000;

type ConnectCallback = Parameters<pg.Pool['connect']>[0];

/**
 * Drizzle's transaction() checks a connection out and sends BEGIN before the try/finally that
 * gives it back (drizzle-orm#6241), so every BEGIN that fails, as when a restart drops the
 * connection, would keep one of the pool's connections for ever. Here a failed BEGIN gives its
 * connection back, to be discarded, and a second release does nothing.
 */
class Pool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    // pool.query() checks out this way, never sends BEGIN and always gives the connection back
    if (callback) return super.connect(callback);
    return super.connect().then((client) => {
      const release = client.release;
      let released = false;
      client.release = (error?: Error | boolean) => {
        if (released) return;
        released = true;
        release(error);
      };
      return client;
    });
  }
}

function releasedWhenBeginFails(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const result = query(...args);
    const text =
      typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown } | undefined)?.text;
    if (result instanceof Promise && typeof text === 'string' && /^\s*begin\b/i.test(text)) {
      result.catch((error: Error) => client.release(error));
    }
    return result;
  }) as typeof client.query;
}

/**
 * Connections one instance keeps, two for each of ten requests: a read may hold two at once (its
 * data and its session check side by side). Requests beyond that wait here for a free one
 * rather than queue inside PostgreSQL, whose default of 100 connections has to serve every
 * instance (docs/decisions/030-authenticated-reads.md).
 */
const POOL_SIZE = 20;

/**
 * Ends a pool once each of its idle connections has closed. end() answers once the pool has let go
 * of them, before they have said goodbye to the server: a process that exits next, or a test that
 * drops the database next, would cut them off mid-close. Only the idle ones are awaited: one still
 * being opened (to a server that never answers) is dropped without a 'remove'.
 */
export async function endPool(pool: pg.Pool): Promise<void> {
  let open = pool.idleCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) return resolve();
    pool.on('remove', () => {
      open -= 1;
      if (open === 0) resolve();
    });
  });
  await pool.end();
  await closed;
}

/**
 * Session settings for every connection. The portal's statements are short OLTP reads and
 * writes; the JIT compiler, which PostgreSQL turns on for plans it costs high (a sweep over a
 * large customer's rows), spends more compiling than it saves on them.
 */
const SESSION_OPTIONS = `-c jit=off -c random_page_cost=${RANDOM_PAGE_COST}`;

export async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new Pool({
    connectionString: url,
    max: POOL_SIZE,
    options: SESSION_OPTIONS,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // A connection the server drops (a restart) must not take the process down: idle ones are
  // reported on the pool, checked-out ones between two queries (in a transaction) on the client.
  // The query that next uses it fails instead, and the pool discards it.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    releasedWhenBeginFails(client);
  });
  const db = drizzlePg({ client: pool, ...drizzleOptions });
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    async migrate(after) {
      // several instances may start at once: one migrates, the others wait and find it done
      const connection = await pool.connect();
      try {
        await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg({ client: connection, ...drizzleOptions }), {
          migrationsFolder: MIGRATIONS_FOLDER,
        });
        await after(sqlRunner(db as unknown as Database));
      } finally {
        await connection
          .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
          .catch(() => {});
        connection.release();
      }
    },
    close: () => endPool(pool),
  };
}

export function openDatabase(config: { DATABASE_URL?: string; DATA_DIR: string }) {
  return config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL)
    : openPglite(path.join(config.DATA_DIR, 'pglite'));
}
