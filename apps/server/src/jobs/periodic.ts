import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../db/client';

/** A first pass this soon after start catches up on what happened while the server was down. */
export const FIRST_RUN_DELAY_MS = 10_000;

export interface PeriodicJob {
  /** Cancels the timers and waits for a pass in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `minutes`, and once `FIRST_RUN_DELAY_MS` after start; `minutes` 0 turns the
 * job off. A pass never starts while the previous one is still running, and a failed pass is
 * logged and followed by the next one as planned. The timers do not keep the process alive.
 */
export function startPeriodicJob(options: {
  /** Names the job in the log, e.g. 'payment reconciliation'. */
  name: string;
  minutes: number;
  log: Pick<FastifyBaseLogger, 'error'>;
  run: () => Promise<unknown>;
}): PeriodicJob {
  const { name, minutes, log, run } = options;
  if (minutes <= 0) return { stop: async () => undefined };
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = run()
      .catch((error: unknown) => log.error({ err: error }, `${name} failed`))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, minutes * 60 * 1000);
  timer.unref();
  const first = setTimeout(tick, FIRST_RUN_DELAY_MS);
  first.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}

/** The first half of every job lock's key: keeps job locks apart from any other advisory lock. */
const JOB_LOCK_CLASS = 7_241_032;

/**
 * Runs `work` in one transaction while holding the job's advisory lock, so that of several
 * instances starting the same job at once only one does the work; the others answer `null` at
 * once. The lock ends with the transaction, also when an instance dies mid-way.
 */
export async function whileHoldingJobLock<T>(
  db: Database,
  job: string,
  work: (tx: Transaction) => Promise<T>,
): Promise<T | null> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(
      sql`SELECT pg_try_advisory_xact_lock(${JOB_LOCK_CLASS}, hashtext(${job})) AS got`,
    );
    const [row] = (result as unknown as { rows: { got: boolean }[] }).rows;
    if (!row?.got) return null;
    return work(tx);
  });
}
