import { and, desc, eq, gt, isNull, lt, ne, or } from 'drizzle-orm';
import {
  securityMessages,
  type SecuritySession,
  type SignInEvent,
  type SignInOutcome,
} from '@portal/contract';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { describeDevice } from '../auth/browsers';
import { sessions } from '../auth/schema';
import { sha256 } from '../auth/secrets';
import {
  ABSOLUTE_LIMIT_MS,
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

/** A session that still gives access: unrevoked, within its absolute and its idle limit. */
const live = (now: Date) =>
  and(
    isNull(sessions.revokedAt),
    gt(sessions.createdAt, new Date(now.getTime() - ABSOLUTE_LIMIT_MS)),
    gt(sessions.lastUsedAt, new Date(now.getTime() - IDLE_LIMIT_MS)),
  );

/** The customer's live sessions, newest first; sessions older than this record show no device. */
export async function listSessions(
  db: Database,
  clock: Clock,
  owner: SessionOwner,
): Promise<SecuritySession[]> {
  const rows = await db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
      userAgent: sessionDevices.userAgent,
      ip: sessionDevices.ip,
    })
    .from(sessions)
    .leftJoin(sessionDevices, eq(sessionDevices.sessionId, sessions.id))
    .where(and(eq(sessions.customerId, owner.customerId), live(clock.now())))
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
  return rows.map((row) => ({
    _id: row.id,
    ...describeDevice(row.userAgent ?? undefined),
    ip: row.ip ?? '',
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    current: row.id === owner.sessionId,
  }));
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
