import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createTestClock } from '../../test/clock';
import { createCustomer } from '../../test/customers';
import { createAccessTokens } from './access-token';
import { bearer, signIn } from './test-support';

const secret = 'access-token-test-secret-'.padEnd(48, 'q');
const claims = { customerId: 'c0ffee00-0000-4000-8000-000000000001', sessionId: 'session-1' };

const otherKey = new TextEncoder().encode('another-signing-secret-'.padEnd(48, 'z'));

/** The same header and claims, signed again with a key that is not the portal's. */
const resignedWithOtherKey = (token: string) =>
  new SignJWT(decodeJwt(token))
    .setProtectedHeader(decodeProtectedHeader(token) as { alg: string })
    .sign(otherKey);

/** The same claims with no signature at all. */
const unsigned = (token: string) =>
  `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${token.split('.')[1]}.`;

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

  it('refuse the claims of a valid token when signed with another key, or not signed', async () => {
    const tokens = createAccessTokens(secret, createTestClock(new Date()));
    const genuine = await tokens.sign(claims);
    expect(await tokens.verify(genuine)).toEqual(claims);
    const [header, payload, signature] = genuine.split('.');
    const otherSigned = await resignedWithOtherKey(genuine);
    // only the signature differs
    expect(otherSigned.split('.').slice(0, 2)).toEqual([header, payload]);
    expect(otherSigned.split('.')[2]).not.toBe(signature);
    await expect(tokens.verify(otherSigned)).rejects.toMatchObject({ statusCode: 401 });
    await expect(tokens.verify(unsigned(genuine))).rejects.toMatchObject({ statusCode: 401 });
    await expect(tokens.verify(`${header}.${payload}.`)).rejects.toMatchObject({
      statusCode: 401,
    });
  });
});

describe('GET /api/auth/profile with a re-signed access token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const profile = (token: string) =>
    t.app.inject({ method: 'GET', url: authPaths.profile, headers: bearer(token) });

  it("answers 401 to a live session's own claims signed with another key", async () => {
    const customer = await createCustomer(t);
    const { token } = await signIn(t, customer);
    // the session is live: the genuine token opens the profile
    expect((await profile(token)).statusCode).toBe(200);

    for (const forged of [await resignedWithOtherKey(token), unsigned(token)]) {
      const res = await profile(forged);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        success: false,
        message: 'Unauthorized access. Please log in.',
      });
    }
    expect((await profile(token)).statusCode).toBe(200);
  });
});
