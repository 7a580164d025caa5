import PgBoss from 'pg-boss';
import type { SqlRunner } from '../db/client';
import { deadLetterOf, JOB_NAMES, QUEUE_SCHEMA, type JobName } from './queue';

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
  // an issued document's PDF: tried until it is stored, about six hours (5 s, 10 s … 2.8 h, each
  // up to twice as long), then an operator is told by the dead-letter digest
  'document-draw': { policy: 'standard', retryLimit: 12, retryDelay: 5, expireInSeconds: 120 },
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
export const idleBoss = (db: SqlRunner) =>
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
