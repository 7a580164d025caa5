import { and, count, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import {
  ActivityEventTypeSchema,
  NOTIFICATION_EVENT_TYPES,
  NOTIFICATIONS_SHOWN,
  activityKindOf,
  activityTypesOfKind,
  isRealDateTime,
  type ActivityEvent,
  type ActivityKind,
  type Notification,
  type NotificationTarget,
} from '@portal/contract';
import type { Database, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/uuid';
import { activityEvents, activitySeen } from './schema';

type EventRow = typeof activityEvents.$inferSelect;

/** Unseen counts stop here: the bell only needs to know that there is something. */
const UNSEEN_COUNT_CAP = 99;

function toEvent(
  row: Pick<EventRow, 'id' | 'type' | 'title' | 'description' | 'status' | 'createdAt'>,
): ActivityEvent {
  const type = ActivityEventTypeSchema.parse(row.type);
  return {
    _id: row.id,
    type,
    kind: activityKindOf(type),
    title: row.title,
    description: row.description,
    status: row.status as ActivityEvent['status'],
    createdAt: row.createdAt.toISOString(),
  };
}

interface Cursor {
  /** created_at with microseconds, exactly as the database holds it. */
  at: string;
  id: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const encodeCursor = (cursor: Cursor) =>
  Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url');

function decodeCursor(raw: string): Cursor {
  const [at = '', id = ''] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  // the shape alone would let 2024-02-30 through to PostgreSQL, which refuses it
  if (!TIMESTAMP.test(at) || !isRealDateTime(at) || !isUuid(id)) {
    throw new AppError('BAD_REQUEST', 'cursor: is not valid', 'validation');
  }
  return { at, id };
}

const createdAtText = sql<string>`to_char(${activityEvents.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * One page of a customer's events, newest first. Keyset pagination on (created_at, id), so a
 * page costs the same however long the history is, and new events never shift later pages.
 */
export async function listActivity(
  db: Database,
  customerId: string,
  query: { cursor?: string; limit: number; type?: ActivityKind },
): Promise<{ data: ActivityEvent[]; nextCursor: string | null }> {
  const conditions: SQL[] = [eq(activityEvents.customerId, customerId)];
  if (query.type) conditions.push(inArray(activityEvents.type, activityTypesOfKind(query.type)));
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor);
    conditions.push(
      sql`(${activityEvents.createdAt}, ${activityEvents.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`,
    );
  }
  const rows = await db
    .select({
      id: activityEvents.id,
      type: activityEvents.type,
      title: activityEvents.title,
      description: activityEvents.description,
      status: activityEvents.status,
      createdAt: activityEvents.createdAt,
      at: createdAtText,
    })
    .from(activityEvents)
    .where(and(...conditions))
    .orderBy(desc(activityEvents.createdAt), desc(activityEvents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    data: page.map(toEvent),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor({ at: last.at, id: last.id }) : null,
  };
}

async function lastSeenAt(db: Executor, customerId: string): Promise<Date | null> {
  const [row] = await db
    .select({ lastSeenAt: activitySeen.lastSeenAt })
    .from(activitySeen)
    .where(eq(activitySeen.customerId, customerId));
  return row?.lastSeenAt ?? null;
}

async function countUnseen(db: Executor, customerId: string, since: Date | null) {
  const conditions = [
    eq(activityEvents.customerId, customerId),
    inArray(activityEvents.type, [...NOTIFICATION_EVENT_TYPES]),
  ];
  if (since) conditions.push(gt(activityEvents.createdAt, since));
  const unseen = db
    .select({ one: sql`1` })
    .from(activityEvents)
    .where(and(...conditions))
    .limit(UNSEEN_COUNT_CAP)
    .as('unseen');
  const [row] = await db.select({ n: count() }).from(unseen);
  return row?.n ?? 0;
}

/**
 * Where a notification leads: the order or the consent it is about, from the ids its event
 * recorded. A deleted consent has nothing left to open.
 */
function targetOf(row: Pick<EventRow, 'type' | 'details'>): NotificationTarget | null {
  const { orderId, consentId } = row.details;
  if (orderId) return { kind: 'order', id: orderId };
  if (consentId && row.type !== 'consent_deleted') return { kind: 'consent', id: consentId };
  return null;
}

/** The bell: the latest notifications, each marked seen or not, and how many are unseen. */
export async function listNotifications(
  db: Database,
  customerId: string,
): Promise<{ unseen: number; notifications: Notification[] }> {
  const since = await lastSeenAt(db, customerId);
  const rows = await db
    .select()
    .from(activityEvents)
    .where(
      and(
        eq(activityEvents.customerId, customerId),
        inArray(activityEvents.type, [...NOTIFICATION_EVENT_TYPES]),
      ),
    )
    .orderBy(desc(activityEvents.createdAt), desc(activityEvents.id))
    .limit(NOTIFICATIONS_SHOWN);
  return {
    unseen: await countUnseen(db, customerId, since),
    notifications: rows.map((row) => ({
      ...toEvent(row),
      seen: since !== null && row.createdAt.getTime() <= since.getTime(),
      target: targetOf(row),
    })),
  };
}

/**
 * Moves the customer's 'last seen' marker up to `upTo` (the newest notification they were
 * shown), never backwards and never past now. Repeating it changes nothing.
 */
export async function markNotificationsSeen(
  db: Database,
  clock: Clock,
  customerId: string,
  upTo: Date,
): Promise<{ unseen: number }> {
  const now = clock.now();
  const mark = upTo.getTime() > now.getTime() ? now : upTo;
  await db
    .insert(activitySeen)
    .values({ customerId, lastSeenAt: mark })
    .onConflictDoUpdate({
      target: activitySeen.customerId,
      set: { lastSeenAt: sql`greatest(${activitySeen.lastSeenAt}, excluded.last_seen_at)` },
    });
  return { unseen: await countUnseen(db, customerId, await lastSeenAt(db, customerId)) };
}
