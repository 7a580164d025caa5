import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps';
import { DAY_MS } from '../../lib/clock';

/**
 * How long the mark of a delivered mail is kept (decision 057). It stops a job run again from
 * sending its mail twice, and a mail job can run again while it exists: about four hours of
 * retries, then up to 14 days in the dead letters, from where an operator may queue it again.
 */
export const DELIVERY_MARK_DAYS = 30;

/** Deletes the marks of mails delivered more than DELIVERY_MARK_DAYS ago; answers how many. */
export async function purgeDeliveryMarks({
  db,
  clock,
}: Pick<AppDeps, 'db' | 'clock'>): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - DELIVERY_MARK_DAYS * DAY_MS);
  // counted in the database: a first purge may delete more rows than are worth returning
  const result = await db.execute(sql`
    WITH purged AS (
      DELETE FROM mail_deliveries WHERE delivered_at < ${cutoff}::timestamptz RETURNING 1
    )
    SELECT count(*)::int AS purged FROM purged`);
  return (result as unknown as { rows: { purged: number }[] }).rows[0]!.purged;
}

/** One run of the mail-purge job. */
export async function runMailPurge(deps: AppDeps, log: FastifyBaseLogger) {
  const purged = await purgeDeliveryMarks(deps);
  if (purged > 0) log.info({ purged }, 'marks of delivered mail purged');
}
