import { and, eq, inArray, isNull, like, lt, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps';
import {
  accountThrottles,
  loginChallenges,
  passwordResetTokens,
  rateLimitWindows,
  refreshTokens,
  sessions,
} from '../modules/auth/schema';
import { passkeyChallenges } from '../modules/passkeys/schema';
import { ABSOLUTE_LIMIT_MS, IDLE_LIMIT_MS } from '../modules/auth/sessions';
import { RATE_LIMITS } from '../lib/rate-limit';
import { whileHoldingJobLock } from '../db/job-lock';
import { DAY_MS } from '../lib/clock';

// Reasons and figures: docs/decisions/021-purging-expired-sign-in-records.md
/** A record is kept this long after it stopped being usable, so support can still see it. */
export const PURGE_MARGIN_MS = DAY_MS;
/** The longest rate-limit window of any action. */
const LONGEST_WINDOW_MS = Math.max(...Object.values(RATE_LIMITS).map((limit) => limit.windowMs));

export interface PurgeCounts {
  loginChallenges: number;
  passkeyChallenges: number;
  sessions: number;
  refreshTokens: number;
  passwordResetTokens: number;
  rateLimitWindows: number;
  accountThrottles: number;
}

const nothing: PurgeCounts = {
  loginChallenges: 0,
  passkeyChallenges: 0,
  sessions: 0,
  refreshTokens: 0,
  passwordResetTokens: 0,
  rateLimitWindows: 0,
  accountThrottles: 0,
};

/**
 * Deletes the sign-in records that can no longer be used, once they have been unusable for a
 * day: a deleted record gets the same answer as an expired one. Several instances may run it at
 * once; one does the work and the others answer zeros.
 */
export async function purgeExpiredAuth({
  db,
  clock,
}: Pick<AppDeps, 'db' | 'clock'>): Promise<PurgeCounts> {
  const cutoff = new Date(clock.now().getTime() - PURGE_MARGIN_MS);
  const before = (ms: number) => new Date(cutoff.getTime() - ms);
  const counts = await whileHoldingJobLock(db, 'purge-expired-auth', async (tx) => {
    const challenges = await tx
      .delete(loginChallenges)
      .where(or(lt(loginChallenges.expiresAt, cutoff), lt(loginChallenges.consumedAt, cutoff)))
      .returning({ id: loginChallenges.id });
    // a sign-in's go with it (cascade); a registration's that no one answered, here
    const passkeyAsks = await tx
      .delete(passkeyChallenges)
      .where(lt(passkeyChallenges.expiresAt, cutoff))
      .returning({ challenge: passkeyChallenges.challenge });

    // revoked, or past the idle or the absolute limit, which ends a session even unrevoked
    const sessionEnded = or(
      lt(sessions.revokedAt, cutoff),
      lt(sessions.lastUsedAt, before(IDLE_LIMIT_MS)),
      lt(sessions.createdAt, before(ABSOLUTE_LIMIT_MS)),
    );
    const tokens = await tx
      .delete(refreshTokens)
      .where(
        inArray(
          refreshTokens.sessionId,
          tx.select({ id: sessions.id }).from(sessions).where(sessionEnded),
        ),
      )
      .returning({ id: refreshTokens.id });
    const ended = await tx.delete(sessions).where(sessionEnded).returning({ id: sessions.id });

    const resetTokens = await tx
      .delete(passwordResetTokens)
      .where(or(lt(passwordResetTokens.expiresAt, cutoff), lt(passwordResetTokens.usedAt, cutoff)))
      .returning({ id: passwordResetTokens.id });

    // each window once its own bucket's time is over (a key is `bucket:who`); any other key once
    // the longest window is
    const windows = await tx
      .delete(rateLimitWindows)
      .where(
        or(
          ...Object.entries(RATE_LIMITS).map(([bucket, { windowMs }]) =>
            and(
              like(rateLimitWindows.key, `${bucket}:%`),
              lt(rateLimitWindows.windowStart, before(windowMs)),
            ),
          ),
          lt(rateLimitWindows.windowStart, before(LONGEST_WINDOW_MS)),
        ),
      )
      .returning({ key: rateLimitWindows.key });

    // Only rows a completed sign-in set back to zero: any failure still counts towards the
    // hard lock at 100, and a lock or a wait must stand. The rule never asks whether an account
    // has the address, so a purge tells nothing about which addresses exist.
    const throttles = await tx
      .delete(accountThrottles)
      .where(
        and(
          eq(accountThrottles.consecutiveFailures, 0),
          isNull(accountThrottles.lockedAt),
          or(isNull(accountThrottles.blockedUntil), lt(accountThrottles.blockedUntil, cutoff)),
          lt(accountThrottles.updatedAt, cutoff),
        ),
      )
      .returning({ email: accountThrottles.email });

    return {
      loginChallenges: challenges.length,
      passkeyChallenges: passkeyAsks.length,
      sessions: ended.length,
      refreshTokens: tokens.length,
      passwordResetTokens: resetTokens.length,
      rateLimitWindows: windows.length,
      accountThrottles: throttles.length,
    };
  });
  return counts ?? nothing;
}

/** One run of the auth-purge job. */
export async function runAuthPurge(deps: AppDeps, log: FastifyBaseLogger) {
  const counts = await purgeExpiredAuth(deps);
  if (Object.values(counts).some((n) => n > 0)) {
    log.info(counts, 'expired sign-in records purged');
  }
}
