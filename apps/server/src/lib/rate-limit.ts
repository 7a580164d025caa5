import { and, eq, lte, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { rateLimitWindows } from '../modules/auth/schema';
import type { Clock } from './clock';
import { AppError } from './errors';

// Limits on what one client address (or one customer's step) may try in a window of time, kept
// in rate_limit_windows. The numbers and their sources: docs/decisions/002-sign-in-throttling.md.

const WINDOW_MS = 15 * 60_000;
export const RATE_LIMITS = {
  /** failed sign-ins per client address */
  login: { max: 20, windowMs: WINDOW_MS },
  /** failed code entries per client address */
  code: { max: 20, windowMs: WINDOW_MS },
  /** reset-link requests and reset confirmations per client address */
  reset: { max: 10, windowMs: WINDOW_MS },
  /** looks at a code mail's status per client address: the code step's polls (decision 064) */
  'code-mail': { max: 120, windowMs: WINDOW_MS },
  /** nominee changes per customer: each mails the person named (decision 074) */
  nominee: { max: 5, windowMs: 24 * 60 * 60_000 },
  /** grievances per customer: each mails the officer (decision 075) */
  grievance: { max: 5, windowMs: 24 * 60 * 60_000 },
  /** correction requests per customer: each mails the operator (decision 078) */
  correction: { max: 5, windowMs: 24 * 60 * 60_000 },
} as const;
export type RateLimitBucket = keyof typeof RATE_LIMITS;

/**
 * An attempt counted before it is evaluated, so that requests arriving together cannot all pass
 * one check. An attempt that turns out not to be a failure gives its count back.
 */
export interface Reservation {
  giveBack(): Promise<void>;
}

function waitMessage(ms: number) {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `Too many attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`;
}

// a give-back or a reset may lift the block between the refusal and the read of its end
export const tooMany = (ms: number) => {
  const wait = Math.max(ms, 1000);
  return new AppError('TOO_MANY_REQUESTS', waitMessage(wait), 'throttled', Math.ceil(wait / 1000));
};

export const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

const bucketKey = (bucket: RateLimitBucket, ip: string) => `${bucket}:${ip}`;

/**
 * Counts a hit in the address's current window, starting a new window when the old one ended,
 * in one statement that refuses once the window is full.
 */
export async function reserveRateLimitHit(
  db: Executor,
  clock: Clock,
  bucket: RateLimitBucket,
  ip: string,
): Promise<Reservation> {
  const { max, windowMs } = RATE_LIMITS[bucket];
  const now = clock.now();
  const key = bucketKey(bucket, ip);
  const windowEnded = sql`${rateLimitWindows.windowStart} <= ${at(new Date(now.getTime() - windowMs))}`;
  const [reserved] = await db
    .insert(rateLimitWindows)
    .values({ key, windowStart: now, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimitWindows.key,
      set: {
        hits: sql`case when ${windowEnded} then 1 else ${rateLimitWindows.hits} + 1 end`,
        windowStart: sql`case when ${windowEnded} then excluded.window_start else ${rateLimitWindows.windowStart} end`,
      },
      setWhere: sql`${windowEnded} or ${rateLimitWindows.hits} < ${sql.raw(String(max))}`,
    })
    .returning({ windowStart: rateLimitWindows.windowStart });
  if (!reserved) {
    const [row] = await db
      .select()
      .from(rateLimitWindows)
      .where(eq(rateLimitWindows.key, key))
      .limit(1);
    throw tooMany((row?.windowStart.getTime() ?? now.getTime()) + windowMs - now.getTime());
  }
  return {
    async giveBack() {
      // only into the window it was taken from; a window that counts only this hit goes
      const sameWindow = and(
        eq(rateLimitWindows.key, key),
        eq(rateLimitWindows.windowStart, reserved.windowStart),
      );
      const [gone] = await db
        .delete(rateLimitWindows)
        .where(and(sameWindow, lte(rateLimitWindows.hits, 1)))
        .returning({ key: rateLimitWindows.key });
      // Stryker disable next-line ConditionalExpression: equivalent; once the delete took the row,
      // the update below finds none; the return only spares its round trip
      if (gone) return;
      await db
        .update(rateLimitWindows)
        .set({ hits: sql`greatest(${rateLimitWindows.hits} - 1, 0)` })
        .where(sameWindow);
    },
  };
}

/** Runs `step`; when it refuses (throws), the reservation is given back: nothing was evaluated. */
export async function givenBackIfRefused<T>(
  reservation: Reservation,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await reservation.giveBack();
    throw error;
  }
}
