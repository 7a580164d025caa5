import { sql } from 'drizzle-orm';
import { QUEUE_SCHEMA, type JobName } from '../adapters/queue';
import type { AppDeps } from '../deps';

type WithQueue = { deps: Pick<AppDeps, 'db' | 'queue'> };

export interface QueuedJob {
  id: string;
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  data: Record<string, unknown>;
  retryCount: number;
  /** When it may run (again): after a failed try, that try's end plus the backoff. */
  startAfter: Date;
  /** When its last try started; null before the first. */
  startedOn: Date | null;
  /** What the handler threw, for a failed try. */
  output: { message?: string } | null;
}

/** Every job of `name` (or of its dead letters, by their name), oldest first. */
export async function jobsOf(t: WithQueue, name: string): Promise<QueuedJob[]> {
  const result = await t.deps.db.execute(sql`
    SELECT id, state, data, retry_count AS "retryCount", start_after AS "startAfter",
      started_on AS "startedOn", output
    FROM ${sql.raw(QUEUE_SCHEMA)}.job WHERE name = ${name} ORDER BY created_on, id`);
  return (result as unknown as { rows: QueuedJob[] }).rows.map((row) => ({
    ...row,
    startAfter: new Date(row.startAfter),
    startedOn: row.startedOn && new Date(row.startedOn),
  }));
}

/** Makes the jobs of `name` waiting out a retry's backoff due now. */
export async function runRetriesNow(t: WithQueue, name: JobName): Promise<void> {
  await t.deps.db.execute(sql`
    UPDATE ${sql.raw(QUEUE_SCHEMA)}.job SET start_after = now()
    WHERE name = ${name} AND state = 'retry'`);
}

/**
 * Waits until no job of `name` waits (a job sent to start later keeps it waiting) or runs, waking the workers a test started (with
 * `t.deps.queue.work`) so that nobody waits for their polling. `retriesNow` skips every
 * retry's backoff, so that a failing job ends in the dead letters within the test.
 */
export async function drainQueue(
  t: WithQueue,
  name: JobName,
  { timeoutMs = 15_000, retriesNow = false }: { timeoutMs?: number; retriesNow?: boolean } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (retriesNow) await runRetriesNow(t, name);
    const counts = (await t.deps.queue.counts()).find((c) => c.name === name)!;
    if (counts.queued === 0 && counts.active === 0) return;
    if (Date.now() > deadline) {
      throw new Error(
        `The ${name} queue still has ${counts.queued} waiting and ${counts.active} running jobs after ${timeoutMs} ms`,
      );
    }
    t.deps.queue.wake(name);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
