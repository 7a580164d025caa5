import { and, desc, eq, gt, isNull, lt, ne, or } from 'drizzle-orm';
import {
  securityMessages,
  type SecuritySession,
  type SignInEvent,
  type SignInOutcome,
} from '@portal/contract';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import {
  jsonInstant,
  runSessionRead,
  sessionReadText,
  type SessionColumns,
  type UnrevokedSession,
} from '../../db/session-read';
import type { Statement } from '../../db/statements';
import { AppError } from '../../lib/errors';
import { describeDevice } from '../auth/browsers';
import { sha256 } from '../auth/secrets';
import {
  ABSOLUTE_LIMIT_MS,
  TOUCH_INTERVAL_MS,
  IDLE_LIMIT_MS,
  revokeCustomerSession,
  revokeCustomerSessions,
  revokeSession,
} from '../auth/sessions';
import { SIGN_IN_HISTORY_MS } from '../auth/sign-in-record';
import { sessionDevices, sessionEndLinks, signInEvents } from './schema';

/** The signed-in customer and the session of the request. */
export interface SessionOwner {
  customerId: string;
  sessionId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A history cursor: the id of the last entry of a page, within bigint's and a double's range. */
const HISTORY_CURSOR = /^[1-9]\d{0,14}$/;

// one answer for an id that is not the customer's, ended, or no id at all: nothing tells them apart
const sessionNotFound = () => new AppError('NOT_FOUND', securityMessages.sessionNotFound);

/**
 * The text of the sessions screen: the request's session, and the customer's live sessions
 * (unrevoked, within their absolute and idle limits; the request's own whatever its idle time,
 * as its use now renews it) newest first, as one JSON value, picked on the index of the
 * customer's sessions. $1 the session, $2 the customer, $3 the oldest creation and $4 the oldest
 * last use a live session has.
 */
const sessionsScreen: Statement = {
  name: 'security_sessions_screen',
  text: sessionReadText(`(SELECT coalesce(json_agg(json_build_object(
      'id', l.id, 'createdAt', ${jsonInstant('l.created_at')},
      'lastUsedAt', ${jsonInstant('l.last_used_at')}, 'userAgent', d.user_agent, 'ip', d.ip
    ) ORDER BY l.created_at DESC, l.id DESC), '[]')
    FROM sessions l LEFT JOIN session_devices d ON d.session_id = l.id
    WHERE l.customer_id = $2::uuid AND l.revoked_at IS NULL AND l.created_at > $3::timestamptz
      AND (l.last_used_at > $4::timestamptz OR l.id = $1::uuid)) AS sessions`),
};

/** A live session as the screen's statement writes it; its instants as the answer writes them. */
interface ListedSession {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  /** Null for a session older than the record of devices. */
  userAgent: string | null;
  ip: string | null;
}

interface SessionsScreenRow extends SessionColumns {
  sessions: ListedSession[];
}

/**
 * The customer's live sessions, newest first, this one marked; sessions older than the record of
 * devices show none. The session read beside them is for the route to confirm (undefined when it
 * is revoked). Confirming it writes its last use after this read, when that is a minute old: the
 * list shows the instant it writes, as it showed when the session was checked before the read.
 */
export async function listSessions(
  db: Database,
  clock: Clock,
  owner: SessionOwner,
): Promise<{ data: SecuritySession[]; session: UnrevokedSession | undefined }> {
  const now = clock.now();
  const { row, session } = await runSessionRead<SessionsScreenRow>(db, owner, sessionsScreen, [
    new Date(now.getTime() - ABSOLUTE_LIMIT_MS),
    new Date(now.getTime() - IDLE_LIMIT_MS),
  ]);
  const touched =
    session !== undefined && now.getTime() - session.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS;
  const data = (row?.sessions ?? []).map((listed) => {
    const current = listed.id === owner.sessionId;
    return {
      _id: listed.id,
      ...describeDevice(listed.userAgent ?? undefined),
      ip: listed.ip ?? '',
      createdAt: listed.createdAt,
      lastUsedAt: current && touched ? now.toISOString() : listed.lastUsedAt,
      current,
    };
  });
  return { data, session };
}

/**
 * Signs out one of the customer's live sessions. The next request of that session, on any
 * instance, finds it revoked (authenticate reads it every time), and its refresh token is refused.
 * A transaction, so that its line in the audit log lands with it.
 */
export async function endSession(db: Database, clock: Clock, owner: SessionOwner, id: string) {
  if (!UUID.test(id)) throw sessionNotFound();
  const ended = await db.transaction((tx) =>
    revokeCustomerSession(tx, clock, owner.customerId, id, 'signed_out'),
  );
  if (!ended) throw sessionNotFound();
}

/** Signs out every session of the customer but the request's own; answers how many ended. */
export const endOtherSessions = (db: Database, clock: Clock, owner: SessionOwner) =>
  db.transaction((tx) =>
    revokeCustomerSessions(tx, clock, owner.customerId, 'signed_out', owner.sessionId),
  );

/** One page of the customer's sign-in history, newest first, by keyset on the growing id. */
export async function listSignIns(
  db: Database,
  clock: Clock,
  customerId: string,
  query: { cursor?: string; limit: number },
): Promise<{ data: SignInEvent[]; nextCursor: string | null }> {
  if (query.cursor !== undefined && !HISTORY_CURSOR.test(query.cursor)) {
    throw new AppError(
      'BAD_REQUEST',
      'cursor: must be the nextCursor of an earlier page',
      'validation',
    );
  }
  const rows = await db
    .select()
    .from(signInEvents)
    .where(
      and(
        eq(signInEvents.customerId, customerId),
        // entries past the history's age go at the customer's next sign-in; until then, unseen
        gt(signInEvents.at, new Date(clock.now().getTime() - SIGN_IN_HISTORY_MS)),
        query.cursor === undefined ? undefined : lt(signInEvents.id, Number(query.cursor)),
      ),
    )
    .orderBy(desc(signInEvents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    data: page.map((row) => ({
      _id: String(row.id),
      at: row.at.toISOString(),
      outcome: row.outcome as SignInOutcome,
      ...describeDevice(row.userAgent),
      ip: row.ip,
    })),
    nextCursor: rows.length > query.limit ? String(page.at(-1)!.id) : null,
  };
}

/** The newest successful sign-in other than the one that started the request's session. */
export async function lastSignIn(db: Database, owner: SessionOwner) {
  const [row] = await db
    .select({ at: signInEvents.at, userAgent: signInEvents.userAgent })
    .from(signInEvents)
    .where(
      and(
        eq(signInEvents.customerId, owner.customerId),
        eq(signInEvents.outcome, 'success'),
        or(isNull(signInEvents.sessionId), ne(signInEvents.sessionId, owner.sessionId)),
      ),
    )
    .orderBy(desc(signInEvents.id))
    .limit(1);
  return row ? { at: row.at.toISOString(), browser: describeDevice(row.userAgent).browser } : null;
}

/** Ends the session a notice's link names, once: its use deletes the link. */
export async function endSessionByLink(db: Database, clock: Clock, token: string) {
  return db.transaction(async (tx) => {
    const [link] = await tx
      .delete(sessionEndLinks)
      .where(eq(sessionEndLinks.tokenHash, sha256(token)))
      .returning({ sessionId: sessionEndLinks.sessionId, expiresAt: sessionEndLinks.expiresAt });
    if (!link || link.expiresAt <= clock.now()) {
      throw new AppError('NOT_FOUND', securityMessages.endLinkInvalid);
    }
    await revokeSession(tx, clock, link.sessionId, 'notice_link');
    const [device] = await tx
      .select({ userAgent: sessionDevices.userAgent })
      .from(sessionDevices)
      .where(eq(sessionDevices.sessionId, link.sessionId));
    return { browser: describeDevice(device?.userAgent).browser };
  });
}
