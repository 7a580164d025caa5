import type { FastifyRequest } from 'fastify';
import { authMessages } from '@portal/contract';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { AccessTokens } from './access-token';
import { activeSession } from './sessions';

export interface RequestAuth {
  customerId: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth;
  }
  interface FastifyInstance {
    /** preHandler for customer routes: a valid bearer access token of a live session, or 401. */
    authenticate(request: FastifyRequest): Promise<void>;
  }
}

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match) throw new AppError('UNAUTHORIZED', 'Unauthorized access. Please log in.');
  return match[1]!;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AuthenticateDeps {
  tokens: AccessTokens;
  db: Database;
  clock: Clock;
}

export function createAuthenticate({ tokens, db, clock }: AuthenticateDeps) {
  return async function authenticate(request: FastifyRequest) {
    const claims = await tokens.verify(bearerToken(request));
    // a logout or a password change ends access at once, not when the access token runs out
    const live =
      UUID.test(claims.sessionId) &&
      UUID.test(claims.customerId) &&
      (await activeSession(db, clock, claims.sessionId, claims.customerId));
    if (!live) throw new AppError('UNAUTHORIZED', authMessages.sessionExpired);
    request.auth = claims;
  };
}
