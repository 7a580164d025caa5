import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import type { AccessTokens } from './access-token';

export interface RequestAuth {
  customerId: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth;
  }
  interface FastifyInstance {
    /** preHandler for customer routes: a valid bearer access token or 401. */
    authenticate(request: FastifyRequest): Promise<void>;
  }
}

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match) throw new AppError('UNAUTHORIZED', 'Unauthorized access. Please log in.');
  return match[1]!;
}

export function createAuthenticate(tokens: AccessTokens) {
  return async function authenticate(request: FastifyRequest) {
    request.auth = await tokens.verify(bearerToken(request));
  };
}
