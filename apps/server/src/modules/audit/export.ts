import { and, asc, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { AuditDetails } from './record';
import { auditEvents } from './schema';

/** Rows read per query: few round trips, and memory that holds one batch whatever the range. */
export const AUDIT_EXPORT_BATCH_SIZE = 500;

export interface AuditRow {
  id: number;
  occurredAt: Date;
  actorKind: string;
  actorId: string | null;
  customerId: string | null;
  action: string;
  outcome: string;
  clientNetwork: string | null;
  details: AuditDetails;
}

/**
 * The events of [from, to), oldest first, in batches by keyset on (occurred_at, id): each query
 * starts after the last row of the one before, on the table's index, so a year costs a query a
 * batch and never holds more than one.
 */
export async function* auditBatches(
  db: Database,
  range: { from: Date; to: Date },
  batchSize = AUDIT_EXPORT_BATCH_SIZE,
): AsyncGenerator<AuditRow[]> {
  let after: { occurredAt: Date; id: number } | null = null;
  for (;;) {
    const rows: AuditRow[] = await db
      .select()
      .from(auditEvents)
      .where(
        and(
          gte(auditEvents.occurredAt, range.from),
          lt(auditEvents.occurredAt, range.to),
          after
            ? sql`(${auditEvents.occurredAt}, ${auditEvents.id}) > (${after.occurredAt.toISOString()}::timestamptz, ${after.id}::bigint)`
            : undefined,
        ),
      )
      .orderBy(asc(auditEvents.occurredAt), asc(auditEvents.id))
      .limit(batchSize);
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    const last = rows.at(-1)!;
    after = { occurredAt: last.occurredAt, id: last.id };
  }
}
