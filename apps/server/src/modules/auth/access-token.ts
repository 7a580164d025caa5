import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { JWT_EXPIRED } from '@portal/contract';
import { AppError } from '../../lib/errors';
import type { Clock } from '../../lib/clock';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const AUDIENCE = 'customer-portal';
const ISSUER = 'customer-portal';
const TOKEN_TYPE = 'access';
const ALGORITHM = 'HS256';

export interface AccessClaims {
  customerId: string;
  /** The refresh-token family this access token belongs to. */
  sessionId: string;
}

export interface AccessTokens {
  sign(claims: AccessClaims): Promise<string>;
  verify(token: string): Promise<AccessClaims>;
}

export function createAccessTokens(secret: string, clock: Clock): AccessTokens {
  const key = new TextEncoder().encode(secret);
  return {
    async sign({ customerId, sessionId }) {
      const issuedAt = Math.floor(clock.now().getTime() / 1000);
      return (
        new SignJWT({ sid: sessionId, typ: TOKEN_TYPE })
          .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
          .setSubject(customerId)
          .setAudience(AUDIENCE)
          .setIssuer(ISSUER)
          .setIssuedAt(issuedAt)
          // unique per token, so two issued in the same second still differ
          .setJti(randomUUID())
          .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
          .sign(key)
      );
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          audience: AUDIENCE,
          issuer: ISSUER,
          requiredClaims: ['exp', 'sub', 'sid'],
          currentDate: clock.now(),
        });
        if (payload.typ !== TOKEN_TYPE || typeof payload.sid !== 'string' || !payload.sub) {
          throw new AppError('UNAUTHORIZED', 'Unauthorized access. Please log in.');
        }
        return { customerId: payload.sub, sessionId: payload.sid };
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) {
          throw new AppError('UNAUTHORIZED', JWT_EXPIRED, JWT_EXPIRED);
        }
        if (error instanceof AppError) throw error;
        throw new AppError('UNAUTHORIZED', 'Unauthorized access. Please log in.');
      }
    },
  };
}
