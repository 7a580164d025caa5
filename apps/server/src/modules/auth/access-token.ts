import { createHmac, createSecretKey, randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import { JWT_EXPIRED } from '@portal/contract';
import { AppError } from '../../lib/errors';
import type { Clock } from '../../lib/clock';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const AUDIENCE = 'customer-portal';
const ISSUER = 'customer-portal';
const TOKEN_TYPE = 'access';
const ALGORITHM = 'HS256';
/** Claims a token must carry: ours, and those jose required when given an issuer and audience. */
const REQUIRED_CLAIMS = ['exp', 'sub', 'sid', 'aud', 'iss'] as const;

export interface AccessClaims {
  customerId: string;
  /** The refresh-token family this access token belongs to. */
  sessionId: string;
}

export interface AccessTokens {
  sign(claims: AccessClaims): Promise<string>;
  verify(token: string): Promise<AccessClaims>;
}

const unauthorized = () => new AppError('UNAUTHORIZED', 'Unauthorized access. Please log in.');

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A base64url JSON object, or null for anything else (bad encoding, bad JSON, an array). */
function jsonObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(strictUtf8.decode(Buffer.from(part, 'base64url')));
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BooleanLiteral: a header or claims set that is no object still fails the checks that follow (no HS256 `alg`, none of the required claims), so loosening this test refuses the same tokens with the same 401
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const hasAudience = (aud: unknown) =>
  aud === AUDIENCE || (Array.isArray(aud) && aud.includes(AUDIENCE));

/** A NumericDate claim when present: a number, or the token is refused. */
function numericDate(payload: Record<string, unknown>, claim: 'iat' | 'nbf' | 'exp') {
  const value = payload[claim];
  if (value !== undefined && typeof value !== 'number') throw unauthorized();
  return value;
}

/**
 * Signing goes through jose (a few times per session); verifying, on every request, is one
 * HMAC with node:crypto and a key made once. The checks are those jose's jwtVerify made with
 * our options, in its order, and no clock tolerance: the header's alg exactly HS256 and no
 * `crit` extension, the signature, the claims set a JSON object with iss, aud, exp, sub and sid,
 * the issuer, the audience, iat, nbf and exp numbers when present, nbf not in the future, exp
 * in the future; then our own: an access token (typ) with a string session and subject.
 */
export function createAccessTokens(secret: string, clock: Clock): AccessTokens {
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const signingKey = new TextEncoder().encode(secret);

  function verifyNow(token: string): AccessClaims {
    const parts = token.split('.');
    if (parts.length !== 3) throw unauthorized();
    const [encodedHeader, encodedPayload, signature] = parts as [string, string, string];
    const header = jsonObject(encodedHeader);
    if (!header || header.alg !== ALGORITHM || header.crit !== undefined) throw unauthorized();
    // the canonical encoding of the right MAC, so that no other spelling of it passes
    const expected = Buffer.from(
      createHmac('sha256', key).update(`${encodedHeader}.${encodedPayload}`).digest('base64url'),
    );
    const presented = Buffer.from(signature);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      throw unauthorized();
    }
    const payload = jsonObject(encodedPayload);
    if (!payload || REQUIRED_CLAIMS.some((claim) => !Object.hasOwn(payload, claim))) {
      throw unauthorized();
    }
    if (payload.iss !== ISSUER || !hasAudience(payload.aud)) throw unauthorized();
    const now = Math.floor(clock.now().getTime() / 1000);
    numericDate(payload, 'iat');
    const nbf = numericDate(payload, 'nbf');
    if (nbf !== undefined && nbf > now) throw unauthorized();
    const exp = numericDate(payload, 'exp');
    // present: a required claim
    if (exp! <= now) throw new AppError('UNAUTHORIZED', JWT_EXPIRED, JWT_EXPIRED);
    const { typ, sid, sub } = payload;
    if (typ !== TOKEN_TYPE || typeof sid !== 'string' || typeof sub !== 'string' || !sub) {
      throw unauthorized();
    }
    return { customerId: sub, sessionId: sid };
  }

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
          .sign(signingKey)
      );
    },
    async verify(token) {
      return verifyNow(token);
    },
  };
}
