import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authMessages } from '@portal/contract';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/uuid';
import { RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from '../../lib/http-errors';
import type { AccessClaims, AccessTokens } from './access-token';
import type { UnrevokedSession } from '../../db/session-read';
import { createSessionCheck, createSessionStanding } from './sessions';

export interface RequestAuth {
  customerId: string;
  sessionId: string;
}

type Verdict = { live: boolean } | { failure: unknown };

/**
 * A read's session check: running beside the handler, or (verdict null) left to the handler's own
 * statement, and the headers the reply had when the read began.
 */
interface PendingSessionCheck {
  verdict: Promise<Verdict> | null;
  headersBefore: Set<string>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth;
    pendingSessionCheck: PendingSessionCheck | null;
  }
  interface FastifyInstance {
    /**
     * preHandler for customer routes: a valid bearer access token of a live session, or 401,
     * before the handler runs. Every route that writes anything uses this one.
     */
    authenticate(request: FastifyRequest): Promise<void>;
    /**
     * preHandler for routes that only read: the token is verified first, the session check
     * runs beside the handler, and the reply waits for it. A dead session gets the same 401
     * and none of what the handler produced. Not for a GET that writes (an event, a download).
     */
    authenticateRead(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * preHandler for routes that only read, whose statement reads the session with the data
     * (decision 046; the consents page and orders history): the token is verified first, and
     * the handler hands the session its statement found to `confirmSession`. A handler that answers without doing so is checked
     * before anything is sent, as with `authenticateRead`.
     */
    authenticateInStatement(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * Whether the session a read's statement found (undefined: none unrevoked of that customer)
     * still stands; 401 when it does not. Writes lastUsedAt when it is a minute old.
     */
    confirmSession(request: FastifyRequest, session: UnrevokedSession | undefined): Promise<void>;
  }
}

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match) throw new AppError('UNAUTHORIZED', 'Unauthorized access. Please log in.');
  return match[1]!;
}

export const sessionExpired = () => new AppError('UNAUTHORIZED', authMessages.sessionExpired);

/**
 * The claims of the request's bearer token; a token whose ids are no UUIDs names no session
 * (and would make PostgreSQL refuse the query).
 */
export async function verifiedClaims(
  tokens: AccessTokens,
  request: FastifyRequest,
): Promise<AccessClaims> {
  const claims = await tokens.verify(bearerToken(request));
  if (!isUuid(claims.sessionId) || !isUuid(claims.customerId)) throw sessionExpired();
  return claims;
}

export interface AuthenticateDeps {
  tokens: AccessTokens;
  db: Database;
  clock: Clock;
}

/**
 * Installs `authenticate`, `authenticateRead`, `authenticateInStatement` with `confirmSession`,
 * and the hook that holds a read's reply until its session check has answered. Reasons:
 * docs/decisions/030-authenticated-reads.md and 046-the-session-in-the-page-statement.md
 */
export function registerAuthentication(
  app: FastifyInstance,
  { tokens, db, clock }: AuthenticateDeps,
) {
  const isLive = createSessionCheck(db, clock);
  const stands = createSessionStanding(db, clock);
  // settled, never rejected: a request the client abandons leaves no unhandled rejection
  const verdictOf = ({ sessionId, customerId }: RequestAuth): Promise<Verdict> =>
    isLive(sessionId, customerId).then(
      (live) => ({ live }),
      (failure: unknown) => ({ failure }),
    );

  app.decorateRequest('auth', null as never);
  app.decorateRequest('pendingSessionCheck', null);

  // a logout or a password change ends access at once, not when the access token runs out
  app.decorate('authenticate', async function authenticate(request: FastifyRequest) {
    const claims = await verifiedClaims(tokens, request);
    if (!(await isLive(claims.sessionId, claims.customerId))) throw sessionExpired();
    request.auth = claims;
  });

  app.decorate(
    'authenticateRead',
    async function authenticateRead(request: FastifyRequest, reply: FastifyReply) {
      const claims = await verifiedClaims(tokens, request);
      request.auth = claims;
      request.pendingSessionCheck = {
        verdict: verdictOf(claims),
        headersBefore: new Set(Object.keys(reply.getHeaders())),
      };
    },
  );

  app.decorate(
    'authenticateInStatement',
    async function authenticateInStatement(request: FastifyRequest, reply: FastifyReply) {
      request.auth = await verifiedClaims(tokens, request);
      request.pendingSessionCheck = {
        verdict: null,
        headersBefore: new Set(Object.keys(reply.getHeaders())),
      };
    },
  );

  app.decorate(
    'confirmSession',
    async function confirmSession(request: FastifyRequest, session: UnrevokedSession | undefined) {
      // the statement's answer settles it either way: this reply, or this 401, is the verdict
      request.pendingSessionCheck = null;
      if (!session || !(await stands(session, request.auth.sessionId))) throw sessionExpired();
    },
  );

  app.addHook('onSend', async (request, reply, payload) => {
    const pending = request.pendingSessionCheck;
    if (!pending) return payload;
    request.pendingSessionCheck = null;
    // a handler that answered before its statement ran (a bad cursor): the check runs now
    const verdict = await (pending.verdict ?? verdictOf(request.auth));
    if ('live' in verdict && verdict.live) return payload;
    // nothing of what the handler produced leaves: not its body, not the headers it set
    if (payload && typeof (payload as NodeJS.ReadableStream).pipe === 'function') {
      (payload as NodeJS.ReadableStream & { destroy(): void }).destroy();
    }
    for (const name of Object.keys(reply.getHeaders())) {
      if (!pending.headersBefore.has(name)) reply.removeHeader(name);
    }
    reply.header('content-type', 'application/json; charset=utf-8');
    if ('failure' in verdict) {
      request.log.warn({ err: verdict.failure }, 'session check failed');
      reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS));
      return JSON.stringify({ success: false, message: UNAVAILABLE_MESSAGE });
    }
    reply.code(401);
    return JSON.stringify({ success: false, message: authMessages.sessionExpired });
  });
}
