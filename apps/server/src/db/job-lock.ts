import { sql } from 'drizzle-orm';
import type { Database, Transaction } from './client';

/** The first half of every job lock's key: keeps job locks apart from any other advisory lock. */
const JOB_LOCK_CLASS = 7_241_032;

/**
 * Runs `work` in one transaction while holding the job's advisory lock, so that of several
 * callers starting the same sweep at once only one does the work; the others answer `null` at
 * once. The queue already runs one job of a sweep at a time; the lock keeps that true for direct
 * calls too, and ends with the transaction, also when an instance dies mid-way.
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
