import { and, eq, lte } from 'drizzle-orm';
import { SIGN_IN_HISTORY_DAYS, type SignInOutcome } from '@portal/contract';
import type { Executor } from '../../db/client';
import { DAY_MS, type Clock } from '../../lib/clock';
import { recordAudit, type AuditReason } from '../audit/record';
import type { RevokeReason } from './schema';
import { randomToken, sha256 } from './secrets';
import { sessionDevices, sessionEndLinks, signInEvents } from '../security/schema';

/** The browser and address a sign-in step came from, as the request presented them. */
export interface SignInClient {
  ip: string;
  userAgent: string | undefined;
}

/** Longer than any real browser's; a longer header is cut, not refused. */
export const USER_AGENT_MAX_LENGTH = 512;
export const SIGN_IN_HISTORY_MS = SIGN_IN_HISTORY_DAYS * DAY_MS;
/** How long the link of a new-browser notice ends its session: longer than a session lives. */
export const END_LINK_TTL_MS = DAY_MS;

const userAgentOf = (client: SignInClient) =>
  (client.userAgent ?? '').slice(0, USER_AGENT_MAX_LENGTH);

/** Notes where a new session was started, for the list of signed-in sessions. */
export async function recordSessionDevice(tx: Executor, sessionId: string, client: SignInClient) {
  await tx
    .insert(sessionDevices)
    .values({ sessionId, userAgent: userAgentOf(client), ip: client.ip });
}

/**
 * Adds a sign-in or a refused attempt to the customer's history, and drops that customer's
 * entries older than the history keeps, so that it stays bounded without a job of its own.
 */
export async function recordSignInAttempt(
  tx: Executor,
  clock: Clock,
  attempt: {
    customerId: string;
    outcome: SignInOutcome;
    client: SignInClient;
    sessionId?: string;
  },
) {
  const now = clock.now();
  await tx.insert(signInEvents).values({
    customerId: attempt.customerId,
    at: now,
    outcome: attempt.outcome,
    userAgent: userAgentOf(attempt.client),
    ip: attempt.client.ip,
    sessionId: attempt.sessionId,
  });
  await recordAudit(tx, clock, {
    actor: 'customer',
    customerId: attempt.customerId,
    action: 'sign_in',
    outcome: attempt.outcome === 'success' ? 'success' : 'failure',
    ip: attempt.client.ip,
    details:
      attempt.outcome === 'success'
        ? { sessionId: attempt.sessionId }
        : { reason: attempt.outcome },
  });
  await tx
    .delete(signInEvents)
    .where(
      and(
        eq(signInEvents.customerId, attempt.customerId),
        lte(signInEvents.at, new Date(now.getTime() - SIGN_IN_HISTORY_MS)),
      ),
    );
}

/** A single-use link token that ends `sessionId`; only its hash is stored. */
export async function createSessionEndLink(tx: Executor, clock: Clock, sessionId: string) {
  const token = randomToken();
  await tx.insert(sessionEndLinks).values({
    tokenHash: sha256(token),
    sessionId,
    expiresAt: new Date(clock.now().getTime() + END_LINK_TTL_MS),
  });
  return token;
}

/**
 * Who ended sessions, for the endings the audit log records. A lapse (idle, absolute) is no
 * event; a password change or reset and an account closing are recorded as themselves.
 */
const ENDED_BY = {
  logout: 'customer',
  signed_out: 'customer',
  notice_link: 'customer',
  // a refresh token presented again is taken as stolen: the server ends its family
  reuse: 'system',
} as const satisfies Partial<Record<RevokeReason & AuditReason, 'customer' | 'system'>>;

const isAudited = (reason: RevokeReason): reason is keyof typeof ENDED_BY => reason in ENDED_BY;

/** Records sessions just revoked for `reason`, all of one customer, in the revoking transaction. */
export async function recordSessionsEnded(
  tx: Executor,
  clock: Clock,
  reason: RevokeReason,
  ended: { id: string; customerId: string }[],
) {
  const [first] = ended;
  if (!isAudited(reason) || !first) return;
  await recordAudit(tx, clock, {
    actor: ENDED_BY[reason],
    customerId: first.customerId,
    action: 'session_ended',
    details: { reason, sessionIds: ended.map((session) => session.id) },
  });
}
