import fastifyCookie from '@fastify/cookie';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import type { DeviceKind } from '@portal/contract';
import { describeDevice, recordSignInBrowser, registerSignInBrowsers } from './browsers';
import { seenBrowsers } from './schema';
import { startSession } from './sessions';
import { freshIp, latestCode, loginBody, wrongCode } from '../../test/auth';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Customer = Awaited<ReturnType<typeof createCustomer>>;

const NOTICE = 'New sign-in to your portal account';
const deviceCookieOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === '__Host-device');

const passwordStep = (customer: Customer, ip: string, cookie?: string, userAgent?: string) =>
  t.app.inject({
    method: 'POST',
    url: authPaths.login,
    headers: {
      ...(cookie ? { cookie: `__Host-device=${cookie}` } : {}),
      ...(userAgent ? { 'user-agent': userAgent } : {}),
    },
    payload: loginBody(customer),
    remoteAddress: ip,
  });

/** Both sign-in steps, the code step presenting `cookie` (none: a browser that keeps none). */
async function signInWith(customer: Customer, cookie?: string, userAgent?: string) {
  const ip = freshIp();
  const first = await passwordStep(customer, ip, cookie, userAgent);
  expect(first.statusCode).toBe(200);
  const res = await t.app.inject({
    method: 'POST',
    url: authPaths.verify2fa,
    headers: {
      ...(cookie ? { cookie: `__Host-device=${cookie}` } : {}),
      ...(userAgent ? { 'user-agent': userAgent } : {}),
    },
    payload: { tempToken: first.json().tempToken, verificationCode: await latestCode(t) },
    remoteAddress: ip,
  });
  expect(res.statusCode).toBe(200);
  // only the password step gives the cookie
  expect(deviceCookieOf(res)).toBeUndefined();
  return res;
}

const noticesTo = async (email: string) =>
  (await t.outbox()).filter((m) => m.to === email && m.subject === NOTICE);

const device = (c: string) => c.repeat(43);

describe('describeDevice', () => {
  it('names the browser and the system a person would recognise', () => {
    const cases: [string | undefined, string][] = [
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
        'Edge on Windows',
      ],
      [
        'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0',
        'Edge on Android',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/131.0.0.0 Mobile/15E148 Safari/604.1',
        'Edge on iOS',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19045',
        'Edge on Windows',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/116.0.0.0',
        'Opera on Windows',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
        'Samsung Internet on Android',
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'Chrome on macOS',
      ],
      [
        'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
        'Chrome on iOS',
      ],
      [
        'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'Chrome on ChromeOS',
      ],
      [
        'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
        'Firefox on Linux',
      ],
      [
        'Mozilla/5.0 (iPod touch; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
        'Firefox on iOS',
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
        'Safari on macOS',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
        'Safari on iOS',
      ],
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
        'Chrome on Linux',
      ],
      ['curl/8.5.0', 'An unknown browser on an unknown system'],
      [undefined, 'An unknown browser on an unknown system'],
      ['', 'An unknown browser on an unknown system'],
    ];
    for (const [userAgent, expected] of cases) {
      expect(describeDevice(userAgent).browser, userAgent).toBe(expected);
    }
  });

  it('tells a phone, a tablet and a computer apart, and says when it cannot', () => {
    const cases: [string | undefined, DeviceKind][] = [
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
        'phone',
      ],
      [
        'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
        'tablet',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'desktop',
      ],
      ['Googlebot/2.1 (+http://www.google.com/bot.html)', 'unknown'],
      ['curl/8.5.0', 'unknown'],
      [undefined, 'unknown'],
    ];
    for (const [userAgent, expected] of cases) {
      expect(describeDevice(userAgent).device, userAgent).toBe(expected);
    }
  });
});

describe('the device cookie of the password step', () => {
  it('is given, for 400 days and to this site only, to a browser without a valid one', async () => {
    const customer = await createCustomer(t);
    for (const presented of [
      undefined,
      device('a').slice(1),
      `${device('a')}b`,
      `${device('a').slice(1)}!`,
      `x.${device('a').slice(2)}`,
    ]) {
      const res = await passwordStep(customer, freshIp(), presented);
      expect(res.statusCode).toBe(200);
      const given = deviceCookieOf(res);
      expect(given, String(presented)).toMatchObject({
        value: expect.stringMatching(/^[\w-]{43}$/),
        httpOnly: true,
        secure: true,
        sameSite: 'Strict',
        path: '/',
        maxAge: 400 * 24 * 60 * 60,
      });
    }
  });

  it('is not given again to a browser that has one', async () => {
    const customer = await createCustomer(t);
    for (const presented of [device('a'), device('Z'), device('0'), device('_'), device('-')]) {
      const res = await passwordStep(customer, freshIp(), presented);
      expect(res.statusCode).toBe(200);
      expect(deviceCookieOf(res), presented).toBeUndefined();
    }
  });

  it('is not given with a refused password', async () => {
    const customer = await createCustomer(t);
    const res = await t.app.inject({
      method: 'POST',
      url: authPaths.login,
      payload: loginBody(customer, { password: 'Wrong@2026' }),
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(401);
    expect(deviceCookieOf(res)).toBeUndefined();
  });
});

describe('the browser of a completed sign-in', () => {
  it('is recorded for its own customer only: the same browser is the first of another account', async () => {
    const [a, b] = [await createCustomer(t), await createCustomer(t)];
    const shared = device('s');
    await signInWith(a, shared);
    await signInWith(a, device('o'));
    expect(await noticesTo(a.email)).toHaveLength(1);
    // b has seen no browser: the one a uses is b's first, not known, and tells nothing
    await signInWith(b, shared);
    await signInWith(b, shared);
    expect(await noticesTo(b.email)).toEqual([]);
    await signInWith(b, device('n'));
    expect(await noticesTo(b.email)).toHaveLength(1);
  });

  it('is a new one each time from a browser that keeps no cookie, or sends a forged one', async () => {
    const customer = await createCustomer(t);
    await signInWith(customer);
    await signInWith(customer);
    await signInWith(customer, 'forged');
    await signInWith(customer, 'forged');
    expect(await noticesTo(customer.email)).toHaveLength(3);
  });

  it('is told of in a mail naming the browser, the time and the customer', async () => {
    const customer = await createCustomer(t);
    await signInWith(customer, device('h'));
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
    await signInWith(customer, device('f'), firefox);
    const [notice] = await noticesTo(customer.email);
    expect(notice!.text).toContain('Browser: Firefox on Linux');
    expect(notice!.text).toMatch(/When: .*\(India time\)/);
    expect(notice!.html).toContain(`Dear ${customer.companyName},`);
  });

  it('is not recorded when the code is refused', async () => {
    const customer = await createCustomer(t);
    await signInWith(customer, device('k'));
    const ip = freshIp();
    const first = await passwordStep(customer, ip, device('m'));
    const refused = await t.app.inject({
      method: 'POST',
      url: authPaths.verify2fa,
      headers: { cookie: `__Host-device=${device('m')}` },
      payload: {
        tempToken: first.json().tempToken,
        verificationCode: wrongCode(await latestCode(t)),
      },
      remoteAddress: ip,
    });
    expect(refused.statusCode).toBe(400);
    expect(await noticesTo(customer.email)).toEqual([]);
  });
});

describe('recordSignInBrowser', () => {
  const input = async (customer: Customer, deviceId: string) => ({
    customerId: customer.id,
    email: customer.email,
    companyName: customer.companyName,
    deviceId,
    userAgent: undefined,
    ip: '203.0.113.9',
    sessionId: (await startSession(t.deps.db, t.clock, customer.id, false)).sessionId,
  });

  it('answers first, known and new, and moves the known browser’s last sighting', async () => {
    const customer = await createCustomer(t);
    expect(await recordSignInBrowser(t.deps, await input(customer, device('1')))).toBe('first');
    t.clock.advance(60_000);
    expect(await recordSignInBrowser(t.deps, await input(customer, device('1')))).toBe('known');
    const [row] = await t.deps.db
      .select()
      .from(seenBrowsers)
      .where(eq(seenBrowsers.customerId, customer.id));
    expect(row!.lastSeenAt).toEqual(t.clock.now());
    expect(row!.firstSeenAt).toEqual(new Date(t.clock.now().getTime() - 60_000));
    expect(await recordSignInBrowser(t.deps, await input(customer, device('2')))).toBe('new');
    expect(await recordSignInBrowser(t.deps, await input(customer, device('2')))).toBe('known');
  });

  it('answers one browser signing in several times at once as new once, and mails once', async () => {
    const customer = await createCustomer(t);
    await recordSignInBrowser(t.deps, await input(customer, device('1')));
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, async () =>
        recordSignInBrowser(t.deps, await input(customer, device('3'))),
      ),
    );
    expect(outcomes.filter((o) => o === 'new')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'known')).toHaveLength(7);
    expect(await noticesTo(customer.email)).toHaveLength(1);
  });
});

describe('a sign-in whose browser cannot be recorded', () => {
  it('still answers the sign-in, and logs why', async () => {
    const logged: { level: number; msg: string; err?: { message?: string } }[] = [];
    const probe = Fastify({
      logger: { level: 'warn', stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
    });
    await probe.register(fastifyCookie);
    registerSignInBrowsers(probe as never, t.deps);
    const answer = {
      success: true,
      message: 'Login successful',
      // an access token naming a session, as the code step's answer carries one
      token: `e30.${Buffer.from(JSON.stringify({ sid: crypto.randomUUID() })).toString('base64url')}.c`,
      // a customer the database does not have: the browser's row cannot refer to it
      user: {
        _id: crypto.randomUUID(),
        id: crypto.randomUUID(),
        company_name: 'Gone Traders',
        email: 'gone@example.com',
        mobile: '9876543210',
        gstNo: '27AAPFU0939F1ZV',
        category: null,
        tally_serialno: '123456789',
        tally_version: null,
        customer_type: 'Customer',
        created_at: new Date().toISOString(),
        plan: null,
      },
    };
    probe.post(authPaths.verify2fa, async () => answer);
    // another answer is no sign-in's: it is neither read nor logged
    probe.post(authPaths.login, async () => ({ success: true, tempToken: 'x' }));
    const other = await probe.inject({ method: 'POST', url: authPaths.login });
    expect(other.statusCode).toBe(200);
    expect(logged).toEqual([]);
    const res = await probe.inject({ method: 'POST', url: authPaths.verify2fa });
    await probe.close();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(answer);
    expect(logged).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'sign-in browser not recorded',
        err: expect.objectContaining({ message: expect.stringMatching(/./) }),
      }),
    ]);
  });
});
