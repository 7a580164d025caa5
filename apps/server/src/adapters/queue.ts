// The portal's job queue: pg-boss 10 on the app's own database, PostgreSQL or PGlite
// (docs/decisions/033-job-queue.md). Its tables are made by the migration; sending needs no
// running queue, so every app and test can enqueue, and only those that ask run workers.
import PgBoss from 'pg-boss';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { sqlRunner, type Database, type Executor, type SqlRunner } from '../db/client';

/** Every queue of the portal. `mail` and `data-export` run on every instance, unscheduled. */
export const JOB_NAMES = [
  'payment-reconcile',
  'auth-purge',
  'consent-expiry',
  'reminders',
  'mail',
  'data-export',
  'data-export-purge',
  'mail-purge',
  'dead-letter-digest',
  'audit-purge',
  'closed-account-purge',
] as const;
export type JobName = (typeof JOB_NAMES)[number];

/** pg-boss's own schema in the database. */
export const QUEUE_SCHEMA = 'pgboss';

/** Where a job of `name` lands once it has failed every retry, for an operator to look at. */
export const deadLetterOf = (name: JobName) => `${name}-dead-letter`;

interface QueueSettings {
  /**
   * `stately`: at most one job waiting and one running, so a sweep never runs twice at once
   * and a second send while one waits is dropped; `standard`: every job runs.
   */
  policy: 'standard' | 'stately';
  /** Tries after the first. */
  retryLimit: number;
  /** Seconds before the first retry; each next wait doubles, plus up to as much at random. */
  retryDelay: number;
  /** A job running longer is failed (and retried): its worker is taken as dead. */
  expireInSeconds: number;
}

const QUEUE_SETTINGS: Record<JobName, QueueSettings> = {
  'payment-reconcile': { policy: 'stately', retryLimit: 3, retryDelay: 30, expireInSeconds: 600 },
  'auth-purge': { policy: 'stately', retryLimit: 3, retryDelay: 60, expireInSeconds: 600 },
  'consent-expiry': { policy: 'stately', retryLimit: 3, retryDelay: 60, expireInSeconds: 600 },
  reminders: { policy: 'stately', retryLimit: 3, retryDelay: 60, expireInSeconds: 600 },
  // about four hours of tries (30 s, 1 min, 2 min … 64 min, each up to twice as long)
  mail: { policy: 'standard', retryLimit: 8, retryDelay: 30, expireInSeconds: 120 },
  // a customer's archive: a few tries over some minutes, then the request is marked failed
  'data-export': { policy: 'standard', retryLimit: 3, retryDelay: 30, expireInSeconds: 1800 },
  'data-export-purge': {
    policy: 'stately',
    retryLimit: 3,
    retryDelay: 60,
    expireInSeconds: 600,
  },
  'mail-purge': { policy: 'stately', retryLimit: 3, retryDelay: 60, expireInSeconds: 600 },
  'closed-account-purge': {
    policy: 'stately',
    retryLimit: 3,
    retryDelay: 60,
    expireInSeconds: 600,
  },
  'audit-purge': { policy: 'stately', retryLimit: 3, retryDelay: 60, expireInSeconds: 600 },
  'dead-letter-digest': {
    policy: 'stately',
    retryLimit: 3,
    retryDelay: 60,
    expireInSeconds: 600,
  },
};

/** Without running anything: pg-boss only reads and writes its tables. */
const idleBoss = (db: SqlRunner) =>
  new PgBoss({ db, schema: QUEUE_SCHEMA, supervise: false, schedule: false });

/**
 * Creates (or upgrades) pg-boss's tables and the portal's queues with their retries and dead
 * letters; settings changed here are applied to existing queues. Part of every migration.
 */
export async function installQueue(db: SqlRunner): Promise<void> {
  const boss = idleBoss(db);
  await boss.start();
  try {
    const ensure = async (name: string, options: PgBoss.Queue) => {
      if (await boss.getQueue(name)) await boss.updateQueue(name, options);
      else await boss.createQueue(name, options);
    };
    for (const name of JOB_NAMES) {
      const settings = QUEUE_SETTINGS[name];
      await ensure(deadLetterOf(name), { name: deadLetterOf(name), policy: 'standard' });
      await ensure(name, {
        name,
        ...settings,
        retryBackoff: true,
        deadLetter: deadLetterOf(name),
      });
    }
  } finally {
    await boss.stop({ graceful: false });
  }
}

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

export type SendOptions = Pick<
  PgBoss.SendOptions,
  | 'id'
  | 'startAfter'
  | 'singletonKey'
  | 'singletonSeconds'
  | 'retryLimit'
  | 'retryDelay'
  | 'priority'
>;

export type Job<T extends object> = PgBoss.JobWithMetadata<T>;

/** A job's state (created, retry, active, completed, cancelled, failed) and its tries so far. */
export type JobState = Pick<Job<object>, 'state' | 'retryCount'>;

export interface WorkOptions {
  /** How often an idle worker looks for jobs; 2 s by default. */
  pollingIntervalSeconds?: number;
}

export interface QueueCounts {
  name: JobName;
  /** Waiting to run: new, or waiting for a retry. */
  queued: number;
  active: number;
  /** Failed every try: waiting in the queue's dead letters. */
  failed: number;
  /** When the longest-waiting job was sent; null when none waits. */
  oldestWaiting: Date | null;
}

/**
 * This instance's workers: none asked for (a command, a test), starting, running, or not running
 * (they failed to start, or stopped).
 */
export type WorkerState = 'none' | 'starting' | 'running' | 'not running';

/** How a run of a job ended: done, failed to be tried again, or failed its last try. */
export type JobOutcome = 'completed' | 'failed' | 'dead_lettered';

export interface Queue {
  /**
   * Enqueues a job through `executor`: pass the open transaction of the change that causes the
   * job, so that the job exists exactly when the change commits. Answers the job's id, or null
   * when the queue's policy dropped it (a sweep already waiting, or a singleton key in use).
   */
  send<T extends object>(
    executor: Executor,
    name: JobName,
    data: T,
    options?: SendOptions,
  ): Promise<string | null>;
  /**
   * Runs `handler` for each job of `name` on this instance, one at a time per worker. A handler
   * that throws fails the job: it is retried with backoff, then moved to the dead letters.
   */
  work<T extends object>(
    name: JobName,
    handler: (job: Job<T>) => Promise<unknown>,
    options?: WorkOptions,
  ): Promise<void>;
  /**
   * Sends a job to `name` on a cron schedule (UTC, minute resolution). The schedule is kept in
   * the database: of all running instances, one sends each due run.
   */
  schedule(name: JobName, cron: string): Promise<void>;
  unschedule(name: JobName): Promise<void>;
  /** Asks this instance's idle workers of `name` to look for jobs now. */
  wake(name: JobName): void;
  /** Per queue: waiting, running and failed jobs, and how long the oldest has waited. */
  counts(): Promise<QueueCounts[]>;
  /** Moves every dead letter of `name` back onto it, with fresh retries; answers how many. */
  retryFailed(name: JobName): Promise<number>;
  /** Where job `id` of `name` is, and how many tries it has had; null when there is none. */
  stateOf(name: JobName, id: string): Promise<JobState | null>;
  /** True when the queue's tables answer (for the readiness check). */
  ready(): Promise<boolean>;
  /** Where worker and scheduling errors are logged; silent until set. */
  logTo(log: Pick<FastifyBaseLogger, 'error' | 'warn'>): void;
  /** This instance's workers, for the readiness check; set by whoever starts them. */
  workers: WorkerState;
  /** Told how each job this instance runs ends (for the metrics). */
  onJob(listener: (name: JobName, outcome: JobOutcome) => void): void;
  /**
   * Stops taking jobs. `graceful` waits (up to `timeoutMs`) for running jobs to finish;
   * otherwise they are handed back at once, to be retried by another instance.
   */
  stop(options?: { graceful?: boolean; timeoutMs?: number }): Promise<void>;
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
