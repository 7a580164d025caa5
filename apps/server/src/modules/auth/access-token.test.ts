import { createHmac } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createTestClock } from '../../test/clock';
import { createCustomer } from '../../test/customers';
import { createAccessTokens } from './access-token';
import { bearer, signIn } from '../../test/auth';

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

/** Claims as the portal signs them, ten minutes from expiry; `changes` adds, replaces or drops. */
const craft = (
  changes: Record<string, unknown> = {},
  header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' },
  key: Uint8Array = new TextEncoder().encode(secret),
) => {
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    sid: 'c0ffee00-0000-4000-8000-0000000000aa',
    typ: 'access',
    sub: claims.customerId,
    aud: 'customer-portal',
    iss: 'customer-portal',
    iat: now,
    exp: now + 600,
    ...changes,
  };
  for (const [name, value] of Object.entries(changes))
    if (value === undefined) delete payload[name];
  return new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(key);
};

/** The portal's HS256 MAC of a header and payload, whatever the header says. */
const mac = (header: string, payload: string) =>
  createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');

describe('access token verification', () => {
  const tokens = createAccessTokens(secret, createTestClock(new Date()));
  const refused = async (token: string) =>
    expect(tokens.verify(token)).rejects.toMatchObject({
      statusCode: 401,
      message: 'Unauthorized access. Please log in.',
    });

  it('accepts what the portal signs, with the audience alone or among others', async () => {
    expect(await tokens.verify(await craft())).toEqual({
      customerId: claims.customerId,
      sessionId: 'c0ffee00-0000-4000-8000-0000000000aa',
    });
    expect(await tokens.verify(await craft({ aud: ['billing', 'customer-portal'] }))).toMatchObject(
      { customerId: claims.customerId },
    );
  });

  it('refuses a token whose payload or header was changed after signing', async () => {
    const [header, payload, signature] = (await craft()).split('.') as [string, string, string];
    const otherPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'x' }),
    ).toString('base64url');
    await refused(`${header}.${otherPayload}.${signature}`);
    const otherHeader = Buffer.from('{"alg":"HS256","typ":"JWS"}').toString('base64url');
    await refused(`${otherHeader}.${payload}.${signature}`);
    // one character of the signature changed, and the signature spelt with padding
    const flipped =
      signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    await refused(`${header}.${payload}.${flipped}`);
    await refused(`${header}.${payload}.${signature}=`);
    await refused(`${header}.${payload}`);
    await refused(`${header}.${payload}.${signature}.${signature}`);
  });

  it('refuses every algorithm but HS256, even signed with the right key', async () => {
    await refused(await craft({}, { alg: 'HS384' }));
    await refused(await craft({}, { alg: 'HS512' }));
    const [, payload] = (await craft()).split('.');
    for (const alg of ['none', 'hs256', 'HS256 ', 'HS384', 'RS256', undefined]) {
      const header = Buffer.from(JSON.stringify({ alg, typ: 'JWT' })).toString('base64url');
      await refused(`${header}.${payload}.`);
      // the HS256 MAC itself does not make another alg acceptable
      await refused(`${header}.${payload}.${mac(header, payload!)}`);
    }
  });

  it('refuses a header with critical extensions or one that is no JSON object', async () => {
    const [, payload] = (await craft()).split('.');
    const headers = [
      '{"alg":"HS256","crit":["x-portal"],"x-portal":1}',
      '["HS256"]',
      'null',
      '{"alg":"HS256"',
      '"HS256"',
    ];
    for (const raw of headers) {
      const header = Buffer.from(raw).toString('base64url');
      await refused(`${header}.${payload}.${mac(header, payload!)}`);
    }
  });

  it('refuses another issuer or audience', async () => {
    await refused(await craft({ iss: 'someone-else' }));
    await refused(await craft({ iss: ['customer-portal'] }));
    await refused(await craft({ aud: 'elsewhere' }));
    await refused(await craft({ aud: ['elsewhere'] }));
  });

  it('refuses a token missing any required claim', async () => {
    for (const claim of ['exp', 'sub', 'sid', 'aud', 'iss', 'typ']) {
      await refused(await craft({ [claim]: undefined }));
    }
  });

  it('refuses claims of the wrong type', async () => {
    await refused(await craft({ exp: String(Math.floor(Date.now() / 1000) + 600) }));
    await refused(await craft({ iat: 'now' }));
    await refused(await craft({ nbf: 'now' }));
    await refused(await craft({ sid: 42 }));
    await refused(await craft({ sub: 42 }));
    await refused(await craft({ sub: '' }));
    await refused(await craft({ typ: 'refresh' }));
  });

  it('refuses a token before its nbf and from its exp on, to the second', async () => {
    const now = Math.floor(Date.now() / 1000);
    const at = createAccessTokens(secret, createTestClock(new Date(now * 1000)));
    await expect(at.verify(await craft({ nbf: now + 1 }))).rejects.toMatchObject({
      statusCode: 401,
      message: 'Unauthorized access. Please log in.',
    });
    expect(await at.verify(await craft({ nbf: now }))).toMatchObject({
      customerId: claims.customerId,
    });
    expect(await at.verify(await craft({ exp: now + 1 }))).toMatchObject({
      customerId: claims.customerId,
    });
    await expect(at.verify(await craft({ exp: now }))).rejects.toMatchObject({
      statusCode: 401,
      error: 'jwt expired',
    });
  });

  it('refuses what is no token at all', async () => {
    for (const junk of ['', 'a.b.c', '..', 'not-a-token', '\u00e9.\u00e9.\u00e9'])
      await refused(junk);
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
