import { count, eq, sql } from 'drizzle-orm';
import Bowser from 'bowser';
import { decodeJwt } from 'jose';
import {
  Verify2faResponseSchema,
  authPaths,
  twoFactorPaths,
  type DeviceKind,
} from '@portal/contract';
import type { AppDeps } from '../../deps';
import type { App } from '../../lib/types';
import { enqueueMail } from '../mail/delivery';
import { portalUrl } from '../mail/format';
import { createSessionEndLink } from './sign-in-record';
import { seenBrowsers } from './schema';
import { randomToken, sha256 } from './secrets';

/** A random id per browser, kept as long as a browser keeps a cookie (400 days at most). */
export const DEVICE_COOKIE = '__Host-device';
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;
const DEVICE_ID = /^[A-Za-z0-9_-]{43}$/;

type BrowserDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'queue' | 'consents'>;

/** The parser's names where a shorter one is what people say. */
const SHORT_NAMES: Partial<Record<string, string>> = {
  'Microsoft Edge': 'Edge',
  'Samsung Internet for Android': 'Samsung Internet',
  'Chrome OS': 'ChromeOS',
};
const DEVICE_KINDS: Partial<Record<string, DeviceKind>> = {
  desktop: 'desktop',
  mobile: 'phone',
  tablet: 'tablet',
};

export interface DescribedDevice {
  /** "Chrome on Windows": enough for a person to recognise the browser, nothing more. */
  browser: string;
  device: DeviceKind;
}

/** A User-Agent as people name it, read by a maintained parser (bowser). */
export function describeDevice(userAgent: string | undefined): DescribedDevice {
  // bowser refuses an empty User-Agent
  const parsed = userAgent ? Bowser.parse(userAgent) : undefined;
  const named = (name: string | undefined, unknown: string) =>
    name ? (SHORT_NAMES[name] ?? name) : unknown;
  return {
    browser: `${named(parsed?.browser.name, 'An unknown browser')} on ${named(parsed?.os.name, 'an unknown system')}`,
    device: DEVICE_KINDS[String(parsed?.platform.type)] ?? 'unknown',
  };
}

/**
 * Records the browser of a completed sign-in. The first browser of an account is taken as its
 * own; a later one not seen before is mailed, queued in the transaction that records it, with
 * a link that ends the session it started.
 */
export async function recordSignInBrowser(
  deps: BrowserDeps,
  input: {
    customerId: string;
    email: string;
    companyName: string;
    deviceId: string;
    userAgent: string | undefined;
    ip: string;
    sessionId: string;
  },
): Promise<'known' | 'first' | 'new'> {
  const now = deps.clock.now();
  const deviceHash = sha256(input.deviceId);
  return deps.db.transaction(async (tx) => {
    // one statement, the one test of "seen before": a browser recorded by another sign-in a
    // moment ago conflicts here too (and that sign-in told of it if it had to). A row the insert
    // wrote has no deleting transaction yet (xmax 0); one the conflict updated has this one.
    const [row] = await tx
      .insert(seenBrowsers)
      .values({ customerId: input.customerId, deviceHash, firstSeenAt: now, lastSeenAt: now })
      .onConflictDoUpdate({
        target: [seenBrowsers.customerId, seenBrowsers.deviceHash],
        set: { lastSeenAt: now },
      })
      .returning({ added: sql<boolean>`xmax = 0` });
    if (!row!.added) return 'known';
    const [held] = await tx
      .select({ n: count() })
      .from(seenBrowsers)
      .where(eq(seenBrowsers.customerId, input.customerId));
    if (held!.n === 1) return 'first';
    const endToken = await createSessionEndLink(tx, deps.clock, input.sessionId);
    await enqueueMail(tx, deps, {
      template: 'new-browser',
      to: input.email,
      data: {
        at: now.toISOString(),
        browser: describeDevice(input.userAgent).browser,
        companyName: input.companyName,
        ip: input.ip,
        endLink: portalUrl(deps.config.PUBLIC_URL, `/end-session#token=${endToken}`),
      },
    });
    return 'new';
  });
}

/** The answers that complete a sign-in: with the e-mailed or app's code, or a recovery code. */
const SIGN_IN_ANSWERS = new Set<string>([authPaths.verify2fa, twoFactorPaths.verifyRecoveryCode]);

const validDevice = (value: string | undefined): value is string =>
  value !== undefined && DEVICE_ID.test(value);

/**
 * The password step gives a browser without one its device cookie; the code step records the
 * browser that completed the sign-in. A browser that sends no cookie back (it keeps none) is a
 * new browser each time. A notice that cannot be recorded is logged; it never undoes a sign-in.
 */
export function registerSignInBrowsers(app: App, deps: BrowserDeps) {
  app.addHook('onSend', async (request, reply, payload) => {
    // the sign-in routes are POSTs: their url alone tells them apart
    if (reply.statusCode !== 200) return payload;
    const url = request.routeOptions.url;
    const presented = request.cookies[DEVICE_COOKIE];
    if (url === authPaths.login && !validDevice(presented)) {
      reply.setCookie(DEVICE_COOKIE, randomToken(), {
        httpOnly: true,
        secure: true,
        sameSite: 'strict',
        path: '/',
        maxAge: DEVICE_COOKIE_MAX_AGE_S,
      });
    }
    // an answer without a route (the web app's pages) has no url: it is no sign-in, whatever
    // stands in for the url
    // Stryker disable next-line StringLiteral: equivalent, as said above
    if (!SIGN_IN_ANSWERS.has(url ?? '') || typeof payload !== 'string') return payload;
    try {
      const { user, token } = Verify2faResponseSchema.parse(JSON.parse(payload));
      const seen = await recordSignInBrowser(deps, {
        customerId: user.id,
        email: user.email,
        companyName: user.company_name,
        deviceId: validDevice(presented) ? presented : randomToken(),
        userAgent: request.headers['user-agent'],
        ip: request.ip,
        // the access token this very answer carries, signed a moment ago
        sessionId: String(decodeJwt(token).sid),
      });
      // sent now, while the customer still remembers signing in; the worker's next look sends it
      // all the same, so no test can tell an early wake from none
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, as said above
      if (seen === 'new') deps.queue.wake('mail');
    } catch (error) {
      request.log.warn({ err: error }, 'sign-in browser not recorded');
    }
    return payload;
  });
}
