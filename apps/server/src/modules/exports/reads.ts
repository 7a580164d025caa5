import { and, asc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import { activityEvents } from '../activity/schema';
import { consents } from '../consents/schema';
import { orders } from '../purchases/schema';
import { partners } from '../partners/schema';
import { plans } from '../plans/schema';

/** Rows read per query: big enough to keep round trips few, small enough to keep memory flat. */
export const EXPORT_BATCH_SIZE = 500;

/** The instants of a customer's range: from its first moment up to (not including) `to`. */
export interface ExportWindow {
  customerId: string;
  from: Date;
  to: Date;
}

/**
 * The last row of a batch: created_at to the microsecond, as PostgreSQL keeps it (a JavaScript
 * Date would round it and skip or repeat rows), and the id that breaks ties.
 */
interface Position {
  at: string;
  id: string;
}

export const microseconds = (column: PgColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * A table's rows of the window in batches, oldest first, by keyset on (created_at, id): each
 * query starts after the last row of the one before, on the customer's index, so that the
 * millionth row costs what the first did (OFFSET would read all those before it again).
 */
export async function* keysetBatches<Row extends Position>(
  window: ExportWindow,
  table: { customerId: PgColumn; createdAt: PgColumn; id: PgColumn },
  read: (where: SQL | undefined, orderBy: SQL[], limit: number) => Promise<Row[]>,
): AsyncGenerator<Row[]> {
  let after: Position | null = null;
  for (;;) {
    const where = and(
      eq(table.customerId, window.customerId),
      gte(table.createdAt, window.from),
      lt(table.createdAt, window.to),
      after
        ? sql`(${table.createdAt}, ${table.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`
        : undefined,
    );
    const rows = await read(where, [asc(table.createdAt), asc(table.id)], EXPORT_BATCH_SIZE);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_BATCH_SIZE) return;
    const last = rows.at(-1)!;
    after = { at: last.at, id: last.id };
  }
}

export const orderBatches = (db: Database, window: ExportWindow) =>
  keysetBatches(window, orders, (where, orderBy, limit) =>
    db
      .select({
        at: microseconds(orders.createdAt),
        id: orders.id,
        createdAt: orders.createdAt,
        planName: plans.planName,
        status: orders.status,
        basePaise: orders.basePaise,
        gstPaise: orders.gstPaise,
        handlingPaise: orders.handlingPaise,
        totalPaise: orders.totalPaise,
        paidAt: orders.paidAt,
      })
      .from(orders)
      .innerJoin(plans, eq(plans.id, orders.planId))
      .where(where)
      .orderBy(...orderBy)
      .limit(limit),
  );

export const activityBatches = (db: Database, window: ExportWindow) =>
  keysetBatches(window, activityEvents, (where, orderBy, limit) =>
    db
      .select({
        at: microseconds(activityEvents.createdAt),
        id: activityEvents.id,
        createdAt: activityEvents.createdAt,
        type: activityEvents.type,
        title: activityEvents.title,
        description: activityEvents.description,
        status: activityEvents.status,
      })
      .from(activityEvents)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit),
  );

export const consentBatches = (db: Database, window: ExportWindow) =>
  keysetBatches(window, consents, (where, orderBy, limit) =>
    db
      .select({
        at: microseconds(consents.createdAt),
        id: consents.id,
        createdAt: consents.createdAt,
        consentId: consents.consentId,
        partner: partners.name,
        status: consents.status,
        purpose: consents.purpose,
        permissions: consents.permissions,
        accounts: consents.accounts,
        transactionFrom: consents.transactionFrom,
        transactionTo: consents.transactionTo,
        expiresAt: consents.expiresAt,
        revokedAt: consents.revokedAt,
      })
      .from(consents)
      .innerJoin(partners, eq(partners.id, consents.partnerRef))
      .where(where)
      .orderBy(...orderBy)
      .limit(limit),
  );
