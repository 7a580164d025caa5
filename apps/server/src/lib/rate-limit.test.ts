import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { rateLimitWindows } from '../modules/auth/schema';
import { createTestClock } from '../test/clock';
import { openTestDatabase } from '../test/database';
import { givenBackIfRefused, RATE_LIMITS, reserveRateLimitHit, tooMany } from './rate-limit';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const minute = 60_000;
let next = 0;
/** A client address no other test has used. */
const freshKey = () => `198.51.100.${(next += 1)}`;

const hitsOf = async (key: string) =>
  (await database.db.select().from(rateLimitWindows).where(eq(rateLimitWindows.key, key)))[0]
    ?.hits ?? 0;

describe('a rate limit per client address', () => {
  it('counts hits up to its window, refuses the next with the wait, and starts a new window once it ends', async () => {
    const clock = createTestClock();
    const ip = freshKey();
    const { max, windowMs } = RATE_LIMITS.reset;
    expect(max).toBe(10);
    expect(windowMs).toBe(15 * minute);
    for (let i = 0; i < max; i += 1) await reserveRateLimitHit(database.db, clock, 'reset', ip);
    expect(await hitsOf(`reset:${ip}`)).toBe(max);

    clock.advance(5 * minute);
    const refused = reserveRateLimitHit(database.db, clock, 'reset', ip);
    await expect(refused).rejects.toMatchObject({
      statusCode: 429,
      error: 'throttled',
      message: 'Too many attempts. Please wait 10 minutes and try again.',
      retryAfterSeconds: 600,
    });
    // another bucket of the same address, and the same bucket of another, are apart
    await reserveRateLimitHit(database.db, clock, 'login', ip);
    await reserveRateLimitHit(database.db, clock, 'reset', freshKey());

    // a millisecond before the window ends, still refused; at its end, a new window of one hit
    clock.advance(10 * minute - 1);
    await expect(reserveRateLimitHit(database.db, clock, 'reset', ip)).rejects.toMatchObject({
      message: 'Too many attempts. Please wait 1 minute and try again.',
      retryAfterSeconds: 1,
    });
    clock.advance(1);
    await reserveRateLimitHit(database.db, clock, 'reset', ip);
    expect(await hitsOf(`reset:${ip}`)).toBe(1);
  });

  it('has the numbers of decision 002', () => {
    expect(RATE_LIMITS).toEqual({
      login: { max: 20, windowMs: 15 * minute },
      code: { max: 20, windowMs: 15 * minute },
      reset: { max: 10, windowMs: 15 * minute },
      'code-mail': { max: 120, windowMs: 15 * minute },
      // per customer, a day: each change mails someone (decisions 074, 075 and 078)
      nominee: { max: 5, windowMs: 24 * 60 * minute },
      grievance: { max: 5, windowMs: 24 * 60 * minute },
      correction: { max: 5, windowMs: 24 * 60 * minute },
    });
  });
});

describe('giving a hit back', () => {
  it('takes one from its window, removes a window of that hit alone, and never goes below none', async () => {
    const clock = createTestClock();
    const ip = freshKey();
    const key = `code:${ip}`;
    const first = await reserveRateLimitHit(database.db, clock, 'code', ip);
    const second = await reserveRateLimitHit(database.db, clock, 'code', ip);
    await second.giveBack();
    expect(await hitsOf(key)).toBe(1);
    await first.giveBack();
    const rows = await database.db
      .select()
      .from(rateLimitWindows)
      .where(eq(rateLimitWindows.key, key));
    expect(rows).toEqual([]);
    await first.giveBack();
    expect(await hitsOf(key)).toBe(0);
  });

  it('gives nothing back to a later window than the one it came from', async () => {
    const clock = createTestClock();
    const ip = freshKey();
    const old = await reserveRateLimitHit(database.db, clock, 'code', ip);
    await reserveRateLimitHit(database.db, clock, 'code', ip);
    clock.advance(15 * minute);
    await reserveRateLimitHit(database.db, clock, 'code', ip);
    await reserveRateLimitHit(database.db, clock, 'code', ip);
    await old.giveBack();
    expect(await hitsOf(`code:${ip}`)).toBe(2);
  });

  it('happens when the step it counted refuses, and not when it goes through', async () => {
    const clock = createTestClock();
    const ip = freshKey();
    const refusing = await reserveRateLimitHit(database.db, clock, 'code', ip);
    await expect(
      givenBackIfRefused(refusing, () => Promise.reject(new Error('refused'))),
    ).rejects.toThrow('refused');
    expect(await hitsOf(`code:${ip}`)).toBe(0);
    const passing = await reserveRateLimitHit(database.db, clock, 'code', ip);
    expect(await givenBackIfRefused(passing, async () => 'done')).toBe('done');
    expect(await hitsOf(`code:${ip}`)).toBe(1);
  });
});

describe('the refusal', () => {
  it('asks for at least a second, and says minutes rounded up', () => {
    expect(tooMany(0)).toMatchObject({
      statusCode: 429,
      message: 'Too many attempts. Please wait 1 minute and try again.',
      retryAfterSeconds: 1,
    });
    expect(tooMany(60_001)).toMatchObject({
      message: 'Too many attempts. Please wait 2 minutes and try again.',
      retryAfterSeconds: 61,
    });
  });
});
