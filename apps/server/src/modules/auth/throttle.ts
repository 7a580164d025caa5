import { eq, sql } from 'drizzle-orm';
import { authMessages } from '@portal/contract';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { accountThrottles, rateLimitWindows } from './schema';

// The numbers and their sources are in docs/decisions/002-sign-in-throttling.md.
export const FREE_FAILURES = 5;
export const FIRST_WAIT_MS = 60_000;
export const MAX_WAIT_MS = 15 * 60_000;
export const LOCK_AFTER_FAILURES = 100;

const WINDOW_MS = 15 * 60_000;
export const RATE_LIMITS = {
  /** failed sign-ins per client address */
  login: { max: 20, windowMs: WINDOW_MS },
  /** failed code entries per client address */
  code: { max: 20, windowMs: WINDOW_MS },
  /** reset-link requests and reset confirmations per client address */
  reset: { max: 10, windowMs: WINDOW_MS },
} as const;
export type RateLimitBucket = keyof typeof RATE_LIMITS;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

function waitMessage(ms: number) {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `Too many attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`;
}

function tooMany(ms: number) {
  return new AppError('TOO_MANY_REQUESTS', waitMessage(ms), 'throttled', Math.ceil(ms / 1000));
}

/** The wait after the n-th consecutive failure: none for the first four, then 1, 2, 4, 8, 15… minutes. */
export function waitAfterFailures(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(FIRST_WAIT_MS * 2 ** (failures - FREE_FAILURES), MAX_WAIT_MS);
}

/** Refuses before any password hashing when the address is waiting or locked. */
export async function assertAccountNotThrottled(db: Executor, clock: Clock, email: string) {
  const [row] = await db
    .select()
    .from(accountThrottles)
    .where(eq(accountThrottles.email, normaliseEmail(email)))
    .limit(1);
  if (!row) return;
  if (row.lockedAt) {
    throw new AppError('TOO_MANY_REQUESTS', authMessages.accountLocked, 'locked');
  }
  const remaining = (row.blockedUntil?.getTime() ?? 0) - clock.now().getTime();
  if (remaining > 0) throw tooMany(remaining);
}

export async function recordAccountFailure(tx: Executor, clock: Clock, email: string) {
  const now = clock.now();
  const key = normaliseEmail(email);
  const [row] = await tx
    .insert(accountThrottles)
    .values({ email: key, consecutiveFailures: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: accountThrottles.email,
      set: {
        consecutiveFailures: sql`${accountThrottles.consecutiveFailures} + 1`,
        updatedAt: now,
      },
    })
    .returning({ failures: accountThrottles.consecutiveFailures });
  const failures = row?.failures ?? 1;
  const wait = waitAfterFailures(failures);
  if (failures >= LOCK_AFTER_FAILURES || wait > 0) {
    await tx
      .update(accountThrottles)
      .set({
        blockedUntil: new Date(now.getTime() + wait),
        ...(failures >= LOCK_AFTER_FAILURES ? { lockedAt: now } : {}),
      })
      .where(eq(accountThrottles.email, key));
  }
}

/** After a completed sign-in: the count of consecutive failures starts again. */
export async function clearAccountFailures(tx: Executor, email: string) {
  await tx
    .update(accountThrottles)
    .set({ consecutiveFailures: 0, blockedUntil: null })
    .where(eq(accountThrottles.email, normaliseEmail(email)));
}

/** After a password reset: the lock goes too. */
export async function unlockAccount(tx: Executor, email: string) {
  await tx.delete(accountThrottles).where(eq(accountThrottles.email, normaliseEmail(email)));
}

const bucketKey = (bucket: RateLimitBucket, ip: string) => `${bucket}:${ip}`;

export async function assertWithinRateLimit(
  db: Executor,
  clock: Clock,
  bucket: RateLimitBucket,
  ip: string,
) {
  const { max, windowMs } = RATE_LIMITS[bucket];
  const [row] = await db
    .select()
    .from(rateLimitWindows)
    .where(eq(rateLimitWindows.key, bucketKey(bucket, ip)))
    .limit(1);
  if (!row) return;
  const remaining = row.windowStart.getTime() + windowMs - clock.now().getTime();
  if (remaining > 0 && row.hits >= max) throw tooMany(remaining);
}

/** Counts one hit in the address's current window, starting a new window when the old one ended. */
export async function countRateLimitHit(
  tx: Executor,
  clock: Clock,
  bucket: RateLimitBucket,
  ip: string,
) {
  const now = clock.now();
  const windowEnded = sql`${rateLimitWindows.windowStart} <= ${new Date(
    now.getTime() - RATE_LIMITS[bucket].windowMs,
  ).toISOString()}::timestamptz`;
  await tx
    .insert(rateLimitWindows)
    .values({ key: bucketKey(bucket, ip), windowStart: now, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimitWindows.key,
      set: {
        hits: sql`case when ${windowEnded} then 1 else ${rateLimitWindows.hits} + 1 end`,
        windowStart: sql`case when ${windowEnded} then excluded.window_start else ${rateLimitWindows.windowStart} end`,
      },
    });
}
