import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import pg from 'pg';
import { authPaths, consentPaths, healthPath, orderPaths } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { authHeaders, createCustomer } from '../test/customers';
import { freePort } from '../test/database';
import { isDatabaseUnavailable } from '../lib/database-errors';
import { RETRY_AFTER_SECONDS } from '../lib/http-errors';
import { openPostgres, type DatabaseHandle } from './client';
import { installQueue } from '../adapters/queue-install';

const run = promisify(execFile);
const PG_BIN = '/usr/lib/postgresql/15/bin';

/**
 * A PostgreSQL cluster of this test alone, so that restarting it disturbs no other test: the
 * shared server of the PostgreSQL run is never touched.
 */
async function createCluster() {
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-outage-'));
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  const asPostgres = (command: string, args: string[]) =>
    run('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, command), ...args], {
      timeout: 60_000,
    });
  const serverOptions = `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pgCtl = (...args: string[]) =>
    asPostgres('pg_ctl', ['-D', dataDir, '-l', path.join(dir, 'server.log'), '-w', ...args]);
  await run('chown', ['postgres:postgres', dir]);
  await asPostgres('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => pgCtl('-o', serverOptions, 'start'),
    restart: () => pgCtl('-m', 'fast', '-o', serverOptions, 'restart'),
    stop: () => pgCtl('-m', 'fast', 'stop'),
    async remove() {
      await pgCtl('-m', 'immediate', 'stop').catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

type Cluster = Awaited<ReturnType<typeof createCluster>>;

interface Answer {
  route: string;
  status: number;
  retryAfter: string | null;
}

const logLines: string[] = [];
let cluster: Cluster | undefined;
let database: DatabaseHandle | undefined;
let t: TestApp | undefined;

beforeAll(async () => {
  cluster = await createCluster();
  await cluster.start();
  database = await openPostgres(cluster.url);
  await database.migrate(installQueue);
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  t = await createTestApp({
    deps: { db: database.db },
    logStream,
    // each forgot-password request comes from its own forwarded address, under the rate limit
    env: { LOG_LEVEL: 'warn', TRUST_PROXY: '127.0.0.1' },
  });
}, 120_000);

/** Waits for `work`, but no longer than `ms`: a pool that cannot close must not keep the cluster. */
const atMost = (ms: number, work: Promise<unknown> | undefined) =>
  Promise.race([work?.catch(() => undefined), sleep(ms)]);

afterAll(async () => {
  await atMost(15_000, t?.close());
  await atMost(15_000, database?.close());
  await cluster?.remove();
}, 60_000);

describe('a PostgreSQL restart under load', () => {
  it('answers 503 with Retry-After while the database is away, never 500, then 200 again', async () => {
    const app = t!;
    const customer = await createCustomer(app);
    const headers = await authHeaders(app, customer.id);
    const sessionId = String(decodeJwt(headers.authorization.slice('Bearer '.length)).sid);
    const base = await app.app.listen({ port: 0, host: '127.0.0.1' });

    let address = 0;
    const routes: Record<string, () => Promise<Response>> = {
      profile: () => fetch(`${base}${authPaths.profile}`, { headers }),
      consents: () =>
        fetch(`${base}${consentPaths.list}?page=1&limit=10&userId=${customer.id}`, { headers }),
      orders: () => fetch(`${base}${orderPaths.history}`, { headers }),
      health: () => fetch(`${base}${healthPath}`),
      docs: () => fetch(`${base}/api/docs/json`),
      forgotPassword: () => {
        address += 1;
        return fetch(`${base}${authPaths.forgotPassword}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': `10.9.${(address >> 8) & 255}.${address & 255}`,
          },
          body: JSON.stringify({ email: customer.email }),
        });
      },
    };
    const names = Object.keys(routes);
    const ask = async (route: string): Promise<Answer> => {
      try {
        const res = await routes[route]!();
        await res.arrayBuffer();
        return { route, status: res.status, retryAfter: res.headers.get('retry-after') };
      } catch {
        // no answer at all (the app dropped the connection) counts against it as status 0
        return { route, status: 0, retryAfter: null };
      }
    };

    // about 100 requests a second, round the routes, until the outage script is over
    const answers: Promise<Answer>[] = [];
    let loading = true;
    const load = (async () => {
      const started = Date.now();
      while (loading && answers.length < 2_000) {
        const due = Math.floor((Date.now() - started) / 10);
        while (answers.length < due) answers.push(ask(names[answers.length % names.length]!));
        await sleep(5);
      }
    })();
    await sleep(1_000);
    await cluster!.restart();
    await sleep(1_000);
    await cluster!.stop();
    await sleep(1_000);
    await cluster!.start();
    await sleep(1_000);
    loading = false;
    await load;
    const all = await Promise.all(answers);

    const counts: Record<string, number> = {};
    for (const { status } of all) counts[status] = (counts[status] ?? 0) + 1;
    console.info('statuses during the restart', counts);

    expect(all.length).toBeGreaterThan(300);
    expect(all.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
    const unavailable = all.filter((a) => a.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    expect(unavailable.filter((a) => a.retryAfter !== String(RETRY_AFTER_SECONDS))).toEqual([]);
    // the API document needs no database, so it never stops answering
    expect(unavailable.filter((a) => a.route === 'docs')).toEqual([]);

    // the same process serves again, with no restart of its own
    const after = await Promise.all(names.map(ask));
    expect(after.map((a) => [a.route, a.status])).toEqual(names.map((name) => [name, 200]));

    const log = logLines.join('');
    expect(log).toContain('database unreachable');
    for (const secret of [sessionId, customer.email, 'params:']) {
      expect(log).not.toContain(secret);
    }
  }, 90_000);
});

describe('the PostgreSQL pool', () => {
  it('gives back a connection whose BEGIN failed, so the pool keeps its size', async () => {
    const pool = (database!.db as unknown as { $client: pg.Pool }).$client;
    const admin = new pg.Client({ connectionString: cluster!.url });
    await admin.connect();
    try {
      let failedTransactions = 0;
      await database!.db.execute(sql`select 1`);
      for (let attempt = 0; attempt < 10; attempt += 1) {
        // the pool still holds the ended connection as idle when the transaction takes it for BEGIN
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
        );
        await database!.db
          .transaction((tx) => tx.execute(sql`select 1`))
          .catch(() => {
            failedTransactions += 1;
          });
      }
      await sleep(200);
      expect(failedTransactions).toBeGreaterThan(0);
      expect({ checkedOut: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }).toEqual({
        checkedOut: 0,
        waiting: 0,
      });
      await expect(
        database!.db.transaction((tx) => tx.execute(sql`select 1`)),
      ).resolves.toBeTruthy();
    } finally {
      await admin.end();
    }
  });

  it('survives the server ending a connection a transaction holds between two queries', async () => {
    const admin = new pg.Client({ connectionString: cluster!.url });
    await admin.connect();
    try {
      const failure = await database!.db
        .transaction(async (tx) => {
          const result = await tx.execute(sql`select pg_backend_pid() as pid`);
          const [{ pid }] = (result as unknown as { rows: [{ pid: number }] }).rows;
          await admin.query('SELECT pg_terminate_backend($1)', [pid]);
          // the connection hears of its end while no query of its own is running
          await sleep(200);
          await tx.execute(sql`select 1`);
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(isDatabaseUnavailable(failure)).toBe(true);
      await expect(database!.db.execute(sql`select 1`)).resolves.toBeTruthy();
    } finally {
      await admin.end();
    }
  });
});
