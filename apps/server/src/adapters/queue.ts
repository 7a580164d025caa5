// The portal's job queue: pg-boss 10 on the app's own database, PostgreSQL or PGlite
// (docs/decisions/033-job-queue.md). Its tables are made by the migration; sending needs no
// running queue, so every app and test can enqueue, and only those that ask run workers.
import type PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/client';

/**
 * Every queue of the portal. `mail`, `document-draw` and `data-export` run on every instance,
 * unscheduled.
 */
export const JOB_NAMES = [
  'payment-reconcile',
  'auth-purge',
  'consent-expiry',
  'reminders',
  'mail',
  'document-draw',
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
