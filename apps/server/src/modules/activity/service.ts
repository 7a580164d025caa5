import { and, count, eq, gt, inArray, sql } from 'drizzle-orm';
import {
  ACTIVITY_PAGE_SIZE,
  ActivityEventTypeSchema,
  NOTIFICATION_EVENT_TYPES,
  NOTIFICATIONS_SHOWN,
  activityKindOf,
  activityTypesOfKind,
  type ActivityEvent,
  type ActivityKind,
  type Notification,
  type NotificationTarget,
} from '@portal/contract';
import type { Database, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { decodeCursor, encodeCursor } from '../../lib/history-cursor';
import {
  jsonInstant,
  microsecondInstant,
  runSessionRead,
  sessionReadText,
  type SessionAuth,
  type SessionColumns,
  type UnrevokedSession,
} from '../../db/session-read';
import { keysetAnswer, keysetPage, keysetPages } from '../../db/keyset-pages';
import { costedForAnyValue, type Statement } from '../../db/statements';
import { activityEvents, activitySeen } from './schema';

type EventRow = typeof activityEvents.$inferSelect;

/** Unseen counts stop here: the bell only needs to know that there is something. */
const UNSEEN_COUNT_CAP = 99;

/** An event's columns as a statement's JSON writes them: createdAt already in ISO, UTC. */
type EventEntry = Pick<EventRow, 'id' | 'type' | 'title' | 'description' | 'status'> & {
  createdAt: string;
};

function toEvent(row: EventEntry): ActivityEvent {
  const type = ActivityEventTypeSchema.parse(row.type);
  return {
    _id: row.id,
    type,
    kind: activityKindOf(type),
    title: row.title,
    description: row.description,
    status: row.status as ActivityEvent['status'],
    createdAt: row.createdAt,
  };
}

/**
 * The text of one page of a customer's events, newest first by (created_at, id), with the
 * request's session: no row at all when it is revoked. The page is read by the index on
 * (customer_id, created_at, id) in an inner subquery and built into one JSON value outside it.
 * $1 the session, $2 the customer, $3 the event types (NULL: all), $4 and $5 the cursor's
 * position when `after`, then the number of rows unless `size` writes it in (decision 048).
 */
function feedPageText(after: boolean, size: number | undefined): string {
  const bound = after ? 'AND (created_at, id) < ($4::timestamptz, $5::uuid)' : '';
  const rows = size ?? `$${after ? 6 : 4}::int`;
  return sessionReadText(`(SELECT coalesce(json_agg(json_build_object(
      'id', e.id, 'type', e.type, 'title', e.title, 'description', e.description,
      'status', e.status, 'createdAt', ${jsonInstant('e.created_at')},
      'at', ${microsecondInstant('e.created_at')}
    ) ORDER BY e.created_at DESC, e.id DESC), '[]')
    FROM (SELECT id, type, title, description, status, created_at FROM activity_events
      WHERE customer_id = ${costedForAnyValue('$2::uuid')}
        AND ($3::text[] IS NULL OR type = ANY($3::text[])) ${bound}
      ORDER BY created_at DESC, id DESC LIMIT ${rows}) e) AS events`);
}

/** The feed's pages; the web app's reads its size, and one more to see whether a next exists. */
const FEED_PAGES = keysetPages('activity_feed', ACTIVITY_PAGE_SIZE + 1, feedPageText);

/** An event of the feed as its statement writes it. */
interface FeedEntry extends EventEntry {
  /** created_at to the microsecond: the cursor's position. */
  at: string;
}

interface FeedPageRow extends SessionColumns {
  events: FeedEntry[];
}

/**
 * One page of a customer's events, newest first, and the session read beside it for the route to
 * confirm. Keyset pagination on (created_at, id), so a page costs the same however long the
 * history is, and new events never shift later pages.
 */
export async function listActivity(
  db: Database,
  auth: SessionAuth,
  query: { cursor?: string | undefined; limit: number; type?: ActivityKind | undefined },
): Promise<{
  data: ActivityEvent[];
  nextCursor: string | null;
  session: UnrevokedSession | undefined;
}> {
  // the feed's own message, and text after the id let through, as its cursors always were
  const cursor =
    query.cursor === undefined
      ? undefined
      : decodeCursor(query.cursor, 'cursor: is not valid', 'ignored');
  const types = query.type ? activityTypesOfKind(query.type) : null;
  // one row more than asked for says whether a next page exists, in the same round trip
  const { statement, more } = keysetPage(
    FEED_PAGES,
    query.limit + 1,
    cursor && [cursor.createdAt, cursor.id],
    [types],
  );
  const { row, session } = await runSessionRead<FeedPageRow>(db, auth, statement, more);
  const { shown, nextCursor } = keysetAnswer(row?.events ?? [], query.limit, (last) =>
    encodeCursor({ createdAt: last.at, id: last.id }),
  );
  return { data: shown.map(toEvent), nextCursor, session };
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

/** The notification types as an SQL list of literals, written into the bell's text. */
const NOTIFICATION_TYPES_SQL = NOTIFICATION_EVENT_TYPES.map(
  (type) => `'${type.replaceAll("'", "''")}'`,
).join(', ');

/** The customer's 'last seen' marker, NULL until they have marked any notification seen. */
const LAST_SEEN_SQL = '(SELECT last_seen_at FROM activity_seen WHERE customer_id = $2::uuid)';

/**
 * The bell's statement: the request's session, the customer's 'last seen' marker, the latest
 * notifications as one JSON value, and how many are unseen, up to the cap (as `countUnseen`).
 * $1 the session, $2 the customer.
 */
const BELL_STATEMENT: Statement = {
  // Stryker disable next-line StringLiteral: the name only lets the database keep the text parsed
  name: 'notifications_bell',
  text: sessionReadText(`${LAST_SEEN_SQL} AS "lastSeenAt",
    (SELECT coalesce(json_agg(json_build_object(
        'id', e.id, 'type', e.type, 'title', e.title, 'description', e.description,
        'status', e.status, 'createdAt', ${jsonInstant('e.created_at')}, 'details', e.details
      ) ORDER BY e.created_at DESC, e.id DESC), '[]')
      FROM (SELECT id, type, title, description, status, details, created_at FROM activity_events
        WHERE customer_id = ${costedForAnyValue('$2::uuid')}
          AND type IN (${NOTIFICATION_TYPES_SQL})
        ORDER BY created_at DESC, id DESC LIMIT ${NOTIFICATIONS_SHOWN}) e) AS notifications,
    (SELECT count(*)::int FROM (SELECT 1 FROM activity_events
        WHERE customer_id = ${costedForAnyValue('$2::uuid')}
          AND type IN (${NOTIFICATION_TYPES_SQL})
          AND created_at > coalesce(${LAST_SEEN_SQL}, '-infinity')
        LIMIT ${UNSEEN_COUNT_CAP}) u) AS unseen`),
};

/** A notification as the bell's statement writes it. */
interface BellEntry extends EventEntry {
  details: EventRow['details'];
}

interface BellRow extends SessionColumns {
  lastSeenAt: Date | null;
  notifications: BellEntry[];
  unseen: number;
}

/**
 * The bell: the latest notifications, each marked seen or not, how many are unseen, and the
 * session read beside them for the route to confirm.
 */
export async function listNotifications(
  db: Database,
  auth: SessionAuth,
): Promise<{
  unseen: number;
  notifications: Notification[];
  session: UnrevokedSession | undefined;
}> {
  const { row, session } = await runSessionRead<BellRow>(db, auth, BELL_STATEMENT, []);
  const since = row?.lastSeenAt ?? null;
  return {
    unseen: row?.unseen ?? 0,
    notifications: (row?.notifications ?? []).map((entry) => ({
      ...toEvent(entry),
      seen: since !== null && new Date(entry.createdAt).getTime() <= since.getTime(),
      target: targetOf(entry),
    })),
    session,
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
