import { and, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { UnrevokedSession } from '../../db/session-read';
import {
  recordSessionDevice,
  recordSessionsEnded,
  recordSignInAttempt,
  type SignInClient,
} from './sign-in-record';
import { randomToken, sha256 } from './secrets';
import { refreshTokens, sessions, type RevokeReason } from './schema';

export type { RevokeReason } from './schema';

// Reasons and figures: docs/decisions/003-sessions-and-refresh-tokens.md
export const IDLE_LIMIT_MS = 30 * 60_000;
export const ABSOLUTE_LIMIT_MS = 12 * 60 * 60_000;
/** Two tabs refreshing at once both present the same token; the later one gets this long. */
export const ROTATION_GRACE_MS = 10_000;
/** How stale lastUsedAt may be before an authenticated request writes it again. */
export const TOUCH_INTERVAL_MS = 60_000;

export interface IssuedSession {
  sessionId: string;
  refreshToken: string;
  rememberMe: boolean;
  createdAt: Date;
}

/**
 * Starts a session. With the `client` of a sign-in, notes its browser and address and adds the
 * sign-in to the customer's history, in the caller's transaction.
 */
export async function startSession(
  tx: Executor,
  clock: Clock,
  customerId: string,
  rememberMe: boolean,
  client?: SignInClient,
): Promise<IssuedSession> {
  const now = clock.now();
  const [session] = await tx
    .insert(sessions)
    .values({ customerId, rememberMe, createdAt: now, lastUsedAt: now })
    .returning({ id: sessions.id });
  const sessionId = session!.id;
  if (client) {
    await recordSessionDevice(tx, sessionId, client);
    await recordSignInAttempt(tx, clock, { customerId, outcome: 'success', client, sessionId });
  }
  const refreshToken = await issueRefreshToken(tx, clock, sessionId);
  return { sessionId, refreshToken, rememberMe, createdAt: now };
}

async function issueRefreshToken(tx: Executor, clock: Clock, sessionId: string) {
  const token = randomToken();
  await tx
    .insert(refreshTokens)
    .values({ sessionId, tokenHash: sha256(token), createdAt: clock.now() });
  return token;
}

/** Revokes the unrevoked sessions that `condition` selects; answers how many. */
async function revokeWhere(
  tx: Executor,
  clock: Clock,
  reason: RevokeReason,
  condition: SQL | undefined,
): Promise<number> {
  const revoked = await tx
    .update(sessions)
    .set({ revokedAt: clock.now(), revokedReason: reason })
    .where(and(isNull(sessions.revokedAt), condition))
    .returning({ id: sessions.id, customerId: sessions.customerId });
  await recordSessionsEnded(tx, clock, reason, revoked);
  return revoked.length;
}

export async function revokeSession(
  tx: Executor,
  clock: Clock,
  sessionId: string,
  reason: RevokeReason,
) {
  await revokeWhere(tx, clock, reason, eq(sessions.id, sessionId));
}

/** One session, if it is `customerId`'s; answers whether it ended it. */
export async function revokeCustomerSession(
  tx: Executor,
  clock: Clock,
  customerId: string,
  sessionId: string,
  reason: RevokeReason,
): Promise<boolean> {
  const condition = and(eq(sessions.id, sessionId), eq(sessions.customerId, customerId));
  return (await revokeWhere(tx, clock, reason, condition)) > 0;
}

/** Every live session of a customer, or every one but `exceptSessionId`; answers how many. */
export const revokeCustomerSessions = (
  tx: Executor,
  clock: Clock,
  customerId: string,
  reason: RevokeReason,
  exceptSessionId?: string,
): Promise<number> =>
  revokeWhere(
    tx,
    clock,
    reason,
    and(
      eq(sessions.customerId, customerId),
      exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
    ),
  );

export type RefreshOutcome =
  | { ok: true; customerId: string; session: IssuedSession }
  | { ok: false; reason: 'unknown' | 'revoked' | RevokeReason };

/**
 * Exchanges a refresh token for a new one of the same family. A token already exchanged is
 * answered within the grace period (two tabs) and otherwise taken as stolen: the family ends.
 */
export async function rotateRefreshToken(
  db: Database,
  clock: Clock,
  presented: string,
): Promise<RefreshOutcome> {
  // revocations must be committed even though the caller answers 401, so the transaction
  // returns the outcome instead of throwing
  return db.transaction(async (tx): Promise<RefreshOutcome> => {
    const now = clock.now();
    const [row] = await tx
      .select({ token: refreshTokens, session: sessions })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .where(eq(refreshTokens.tokenHash, sha256(presented)))
      .limit(1);
    if (!row) return { ok: false, reason: 'unknown' };
    const { token, session } = row;
    if (session.revokedAt) return { ok: false, reason: 'revoked' };
    if (now.getTime() - session.createdAt.getTime() >= ABSOLUTE_LIMIT_MS) {
      await revokeSession(tx, clock, session.id, 'absolute');
      return { ok: false, reason: 'absolute' };
    }
    if (now.getTime() - session.lastUsedAt.getTime() >= IDLE_LIMIT_MS) {
      await revokeSession(tx, clock, session.id, 'idle');
      return { ok: false, reason: 'idle' };
    }
    if (!token.rotatedAt) {
      // the first exchange; one running at the same moment (another tab) passes as its twin,
      // and the grace counts from whichever wrote first
      await tx
        .update(refreshTokens)
        .set({ rotatedAt: now })
        .where(and(eq(refreshTokens.id, token.id), isNull(refreshTokens.rotatedAt)));
    } else if (now.getTime() - token.rotatedAt.getTime() > ROTATION_GRACE_MS) {
      await revokeSession(tx, clock, session.id, 'reuse');
      return { ok: false, reason: 'reuse' };
    }
    await tx.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, session.id));
    const refreshToken = await issueRefreshToken(tx, clock, session.id);
    return {
      ok: true,
      customerId: session.customerId,
      session: {
        sessionId: session.id,
        refreshToken,
        rememberMe: session.rememberMe,
        createdAt: session.createdAt,
      },
    };
  });
}

/** The session a refresh token belongs to, whatever its state (for logout). */
export async function sessionOfRefreshToken(db: Executor, presented: string) {
  const [row] = await db
    .select({ sessionId: refreshTokens.sessionId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256(presented)))
    .limit(1);
  return row?.sessionId;
}

/** Whether an access token's session still stands; see `createSessionCheck`. */
export type SessionCheck = (sessionId: string, customerId: string) => Promise<boolean>;

/**
 * Whether an unrevoked session still stands at this moment (within its absolute limit), and
 * when it does, lastUsedAt written again if it is older than a minute, to keep the idle clock
 * honest for active users.
 */
export function createSessionStanding(db: Database, clock: Clock) {
  const touch = db
    .update(sessions)
    .set({ lastUsedAt: sql`${sql.placeholder('now')}` })
    .where(eq(sessions.id, sql.placeholder('sessionId')))
    .prepare(
      // Stryker disable next-line StringLiteral: the name only lets PostgreSQL keep the parsed statement; unnamed, it is parsed each time and answers the same
      'touch_session',
    );
  return async (session: UnrevokedSession, sessionId: string): Promise<boolean> => {
    const now = clock.now();
    if (now.getTime() - session.createdAt.getTime() >= ABSOLUTE_LIMIT_MS) return false;
    if (now.getTime() - session.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS) {
      await touch.execute({ sessionId, now });
    }
    return true;
  };
}

/** The conditions of an unrevoked session of its customer, for reads that carry the check. */
export const unrevokedSession = () =>
  and(
    eq(sessions.id, sql.placeholder('sessionId')),
    eq(sessions.customerId, sql.placeholder('customerId')),
    isNull(sessions.revokedAt),
  );

/**
 * Whether an access token's session still stands: one prepared primary-key read per request.
 * Read from the database every time, never cached, so that a logout or a password change on
 * any instance ends access at once.
 */
export function createSessionCheck(db: Database, clock: Clock): SessionCheck {
  const read = db
    .select({ createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .where(unrevokedSession())
    .limit(1)
    .prepare(
      // Stryker disable next-line StringLiteral: the name only lets PostgreSQL keep the parsed statement; unnamed, it is parsed each time and answers the same
      'live_session',
    );
  const stands = createSessionStanding(db, clock);
  return async (sessionId, customerId) => {
    const [session] = await read.execute({ sessionId, customerId });
    return session !== undefined && (await stands(session, sessionId));
  };
}
