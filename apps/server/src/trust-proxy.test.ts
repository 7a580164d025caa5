import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from './test/app';

/** Failed sign-ins allowed per client address in 15 minutes (modules/auth/throttle.ts). */
const PER_ADDRESS = 20;

/** A failed sign-in for an address nobody has, so that only the per-address limit can answer 429. */
const failedLogin = (t: TestApp, remoteAddress: string, forwardedFor?: string) =>
  t.app.inject({
    method: 'POST',
    url: authPaths.login,
    remoteAddress,
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    payload: {
      email: `nobody-${randomUUID()}@example.test`,
      mobile: '9876543210',
      gstNo: '27AAPFU0939F1ZV',
      tally_serialno: '712345678',
      password: 'Wrong@123',
    },
  });

/** The status of each of `count` failed sign-ins, sent one after another. */
async function statuses(count: number, send: (i: number) => ReturnType<typeof failedLogin>) {
  const codes: number[] = [];
  for (let i = 0; i < count; i += 1) codes.push((await send(i)).statusCode);
  return codes;
}

const spoofed = (i: number) => `198.51.100.${i + 1}`;
const limited = [...Array<number>(PER_ADDRESS).fill(401), 429];

describe('behind one reverse proxy (TRUST_PROXY set to its address)', () => {
  const PROXY = '10.20.30.40';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: PROXY } });
  });
  afterAll(() => t.close());

  it('limits the address the proxy appended, whatever the client wrote before it', async () => {
    const client = '203.0.113.7';
    const codes = await statuses(PER_ADDRESS + 1, (i) =>
      failedLogin(t, PROXY, `${spoofed(i)}, ${client}`),
    );
    expect(codes).toEqual(limited);
  });

  it('keeps apart two clients that come through the same proxy', async () => {
    const first = '203.0.113.8';
    expect(await statuses(PER_ADDRESS, () => failedLogin(t, PROXY, first))).not.toContain(429);
    expect((await failedLogin(t, PROXY, first)).statusCode).toBe(429);
    expect((await failedLogin(t, PROXY, '203.0.113.9')).statusCode).toBe(401);
  });

  it('believes no X-Forwarded-For from a client that connects directly', async () => {
    const direct = '192.0.2.50';
    const codes = await statuses(PER_ADDRESS + 1, (i) => failedLogin(t, direct, spoofed(i)));
    expect(codes).toEqual(limited);
  });
});

describe('with TRUST_PROXY unset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For: a changing header does not move the limit', async () => {
    const codes = await statuses(PER_ADDRESS + 1, (i) =>
      failedLogin(t, '192.0.2.60', `${spoofed(i)}, 203.0.113.${i + 1}`),
    );
    expect(codes).toEqual(limited);
  });

  it('ignores X-Forwarded-For: one header does not join different clients', async () => {
    const codes = await statuses(PER_ADDRESS + 1, (i) =>
      failedLogin(t, `192.0.2.${100 + i}`, '203.0.113.200'),
    );
    expect(codes).not.toContain(429);
  });
});
