import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../test/clock';
import { createAccessTokens } from './access-token';

const secret = 'access-token-test-secret-'.padEnd(48, 'q');
const claims = { customerId: 'c0ffee00-0000-4000-8000-000000000001', sessionId: 'session-1' };

const sign = (payload: Record<string, unknown>, audience: string) =>
  new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.customerId)
    .setAudience(audience)
    .setIssuer('customer-portal')
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(secret));

describe('access tokens', () => {
  it('give back the customer and session they were signed for', async () => {
    const tokens = createAccessTokens(secret, createTestClock(new Date()));
    expect(await tokens.verify(await tokens.sign(claims))).toEqual(claims);
  });

  it('differ even when issued in the same second for the same session', async () => {
    const tokens = createAccessTokens(secret, createTestClock());
    expect(await tokens.sign(claims)).not.toBe(await tokens.sign(claims));
  });

  it('refuse another audience or another token type', async () => {
    const tokens = createAccessTokens(secret, createTestClock(new Date()));
    const otherAudience = await sign({ sid: claims.sessionId, typ: 'access' }, 'elsewhere');
    const refreshType = await sign({ sid: claims.sessionId, typ: 'refresh' }, 'customer-portal');
    await expect(tokens.verify(otherAudience)).rejects.toMatchObject({ statusCode: 401 });
    await expect(tokens.verify(refreshType)).rejects.toMatchObject({ statusCode: 401 });
  });

  it('call an expired token "jwt expired"', async () => {
    const clock = createTestClock();
    const tokens = createAccessTokens(secret, clock);
    const token = await tokens.sign(claims);
    clock.advance(15 * 60_000 + 1);
    await expect(tokens.verify(token)).rejects.toMatchObject({
      statusCode: 401,
      error: 'jwt expired',
    });
  });
});
