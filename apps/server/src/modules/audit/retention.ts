import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { AUDIT_RETENTION_FLOOR_DAYS } from '../../config';
import type { AppDeps } from '../../deps';
import { DAY_MS } from '../../lib/clock';
import { recordAudit } from './record';

/**
 * Deletes the audit events older than AUDIT_RETENTION_DAYS, and records how many went; answers
 * that number. The database's own clock bounds the delete too, so that an app clock ahead of it
 * never asks for a row the trigger refuses (which would fail the whole run).
 */
export async function purgeExpiredAudit({
  db,
  clock,
  config,
}: Pick<AppDeps, 'db' | 'clock' | 'config'>): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - config.AUDIT_RETENTION_DAYS * DAY_MS);
  return db.transaction(async (tx) => {
    // counted in the database: a first purge may delete more rows than are worth returning
    const result = await tx.execute(sql`
      WITH purged AS (
        DELETE FROM audit_events
        WHERE occurred_at < ${cutoff}::timestamptz
          AND occurred_at < now() - make_interval(days => ${AUDIT_RETENTION_FLOOR_DAYS})
        RETURNING 1
      )
      SELECT count(*)::int AS purged FROM purged`);
    const purged = (result as unknown as { rows: { purged: number }[] }).rows[0]!.purged;
    if (purged > 0) {
      await recordAudit(tx, clock, {
        actor: 'system',
        customerId: null,
        action: 'audit_purged',
        details: { rows: purged },
      });
    }
    return purged;
  });
}

/** One run of the audit-purge job. */
export async function runAuditPurge(deps: AppDeps, log: FastifyBaseLogger) {
  const purged = await purgeExpiredAudit(deps);
  if (purged > 0) log.info({ purged }, 'audit events past their retention deleted');
}
