import PgBoss from 'pg-boss';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { sqlRunner, type Database, type Executor, type SqlRunner } from '../db/client';
import {
  deadLetterOf,
  JOB_NAMES,
  QUEUE_SCHEMA,
  type Job,
  type JobName,
  type JobOutcome,
  type Queue,
} from './queue';
import { idleBoss } from './queue-install';

/**
 * Runs pg-boss's SQL through a Drizzle database or open transaction, so that what it writes
 * commits or rolls back with the transaction's own changes. `$n` in its text become values.
 */
export function drizzleRunner(executor: Executor): SqlRunner {
  return {
    async executeSql(text, values = []) {
      const chunks: SQL[] = [];
      let last = 0;
      for (const match of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(last, match.index)));
        chunks.push(sql`${sql.param(values[Number(match[1]) - 1] ?? null)}`);
        last = match.index + match[0].length;
      }
      chunks.push(sql.raw(text.slice(last)));
      const result = await executor.execute(sql.join(chunks));
      return { rows: (result as unknown as { rows: Record<string, unknown>[] }).rows };
    },
  };
}

const SETTLE_POLL_MS = 20;

/**
 * What a query that failed after stop() answers: nothing fetched, and for a job's completion or
 * failure (pg-boss reads `rows[0].count` of those, whose SQL ends in a count of `results`) a
 * count of none, so that pg-boss's late bookkeeping ends quietly rather than in a TypeError.
 */
function lateAnswer(text: string) {
  return /SELECT COUNT\(\*\) FROM results\s*$/i.test(text)
    ? { rows: [{ count: '0' }] }
    : { rows: [] };
}

/**
 * The queue of the app's database. `timing` shortens how often an instance looks for due
 * schedules (30 s) and sends them (5 s), for tests.
 */
export function createQueue(
  db: Database,
  timing: Pick<
    PgBoss.ConstructorOptions,
    'cronMonitorIntervalSeconds' | 'cronWorkerIntervalSeconds'
  > = {},
): Queue {
  let log: Pick<FastifyBaseLogger, 'error' | 'warn'> | null = null;
  let listener: ((name: JobName, outcome: JobOutcome) => void) | null = null;
  // pg-boss does not wait for a job's completion write, nor for a worker's last fetch, before
  // it answers stop(): the queries in flight are counted here so stop() can wait for them. A
  // job handed back by a stop that did not wait may still finish later, when the database may
  // be closed: its completion is void by then (the job is no longer active), and its failure
  // is dropped rather than left unhandled.
  let inFlight = 0;
  let stopped = false;
  const runner = sqlRunner(db);
  const counted: SqlRunner = {
    async executeSql(text, values) {
      inFlight += 1;
      try {
        return await runner.executeSql(text, values);
      } catch (error) {
        if (stopped) return lateAnswer(text);
        throw error;
      } finally {
        inFlight -= 1;
      }
    },
  };
  // sends, unschedules and the operator's retries, which need no running instance
  const idle = idleBoss(runner);
  const boss = new PgBoss({
    db: counted,
    schema: QUEUE_SCHEMA,
    // the tables come from the migration; an instance never changes them
    migrate: false,
    ...timing,
  });
  boss.on('error', (error) => log?.error({ err: error }, 'job queue error'));
  const workers = new Map<JobName, string[]>();
  let running = 0;
  let starting: Promise<unknown> | null = null;
  const wakeWorkers = (name: JobName) => {
    for (const id of workers.get(name) ?? []) boss.notifyWorker(id);
  };
  const start = () => {
    stopped = false;
    return (starting ??= boss.start());
  };

  return {
    send: (executor, name, data, sendOptions = {}) =>
      idle.send(name, data, { ...sendOptions, db: drizzleRunner(executor) }),

    async work(name, handler, workOptions = {}) {
      await start();
      const id = await boss.work<object>(
        name,
        { ...workOptions, batchSize: 1, includeMetadata: true },
        // batchSize 1: one job each call, so a failure fails that job alone
        async ([job]) => {
          running += 1;
          try {
            await handler(job as Job<never>);
            listener?.(name, 'completed');
          } catch (error) {
            const { id, retryCount, retryLimit } = job!;
            log?.warn({ err: error, queue: name, id, retryCount, retryLimit }, 'job failed');
            // the last try fails into the queue's dead letters
            listener?.(name, retryCount >= retryLimit ? 'dead_lettered' : 'failed');
            throw error;
          } finally {
            running -= 1;
            // pg-boss waits its polling interval after every fetch, even one that found a job:
            // a backlog would drain one job an interval. A worker that just ran one looks for
            // the next at once, and waits only when the queue is empty.
            wakeWorkers(name);
          }
        },
      );
      workers.set(name, [...(workers.get(name) ?? []), id]);
    },

    async schedule(name, cron) {
      await start();
      await boss.schedule(name, cron, {}, { tz: 'UTC' });
    },

    unschedule: (name) => idle.unschedule(name),

    wake: wakeWorkers,

    async counts() {
      const { rows } = await runner.executeSql(
        `SELECT name,
           count(*) FILTER (WHERE state < 'active')::int AS queued,
           count(*) FILTER (WHERE state = 'active')::int AS active,
           min(created_on) FILTER (WHERE state < 'active') AS oldest
         FROM ${QUEUE_SCHEMA}.job WHERE name = ANY($1::text[]) GROUP BY name`,
        [[...JOB_NAMES, ...JOB_NAMES.map(deadLetterOf)]],
      );
      const of = (name: string) => rows.find((row) => row.name === name);
      return JOB_NAMES.map((name) => ({
        name,
        queued: Number(of(name)?.queued ?? 0),
        active: Number(of(name)?.active ?? 0),
        failed: Number(of(deadLetterOf(name))?.queued ?? 0),
        oldestWaiting: of(name)?.oldest ? new Date(of(name)!.oldest as string) : null,
      }));
    },

    async retryFailed(name) {
      let moved = 0;
      for (;;) {
        const batch = await db.transaction(async (tx) => {
          const txRunner = drizzleRunner(tx);
          const letters = await idle.fetch<object>(deadLetterOf(name), {
            batchSize: 100,
            db: txRunner,
          });
          for (const letter of letters) {
            await idle.send(name, letter.data, { db: txRunner });
          }
          if (letters.length > 0) {
            await idle.deleteJob(
              deadLetterOf(name),
              letters.map((letter) => letter.id),
              { db: txRunner },
            );
          }
          return letters.length;
        });
        moved += batch;
        if (batch === 0) return moved;
      }
    },

    async stateOf(name, id) {
      const job = await idle.getJobById<object>(name, id);
      return job && { state: job.state, retryCount: job.retryCount };
    },

    async ready() {
      try {
        await runner.executeSql(`SELECT 1 FROM ${QUEUE_SCHEMA}.version LIMIT 1`);
        return true;
      } catch {
        return false;
      }
    },

    logTo(logger) {
      log = logger;
    },

    workers: 'none',

    onJob(onOutcome) {
      listener = onOutcome;
    },

    async stop({ graceful = true, timeoutMs = 30_000 } = {}) {
      if (!starting) return;
      await starting;
      await boss.stop({ graceful, timeout: timeoutMs, close: false });
      const deadline = Date.now() + (graceful ? timeoutMs : 0) + 1_000;
      while ((inFlight > 0 || (graceful && running > 0)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
      }
      stopped = true;
      starting = null;
      workers.clear();
    },
  };
}
