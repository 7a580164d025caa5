import { and, eq, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { authMessages } from '@portal/contract';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { at, tooMany, type Reservation } from '../../lib/rate-limit';
import { normaliseEmail } from '../users/service';
import { accountThrottles } from './schema';

// The numbers and their sources are in docs/decisions/002-sign-in-throttling.md.
export const FREE_FAILURES = 5;
export const FIRST_WAIT_MS = 60_000;
export const MAX_WAIT_MS = 15 * 60_000;
export const LOCK_AFTER_FAILURES = 100;

/** The wait after the n-th consecutive failure: none for the first four, then 1, 2, 4, 8, 15… minutes. */
export function waitAfterFailures(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(FIRST_WAIT_MS * 2 ** (failures - FREE_FAILURES), MAX_WAIT_MS);
}

/** `waitAfterFailures` as SQL, built from it, so that the wait is set in the counting statement. */
const waitAfterFailuresSql = (failures: SQL) => {
  const steps: string[] = [];
  for (let n = FREE_FAILURES; waitAfterFailures(n) < MAX_WAIT_MS; n += 1) {
    steps.push(`when ${n} then ${waitAfterFailures(n)}`);
  }
  return sql`(case ${failures} ${sql.raw(steps.join(' '))} else ${sql.raw(String(MAX_WAIT_MS))} end)`;
};

/** The columns of a throttle row whose count becomes `failures`: the wait and the lock come with it. */
function countedFailure(failures: SQL, now: Date) {
  return {
    consecutiveFailures: failures,
    blockedUntil: sql`case when ${failures} >= ${sql.raw(String(FREE_FAILURES))}
      then ${at(now)} + ${waitAfterFailuresSql(failures)} * interval '1 millisecond'
      else ${accountThrottles.blockedUntil} end`,
    lockedAt: sql`case when ${failures} >= ${sql.raw(String(LOCK_AFTER_FAILURES))}
      then coalesce(${accountThrottles.lockedAt}, ${at(now)}) else ${accountThrottles.lockedAt} end`,
    updatedAt: now,
  };
}

const oneMore = sql`${accountThrottles.consecutiveFailures} + 1`;

/**
 * Counts an attempt on the address before its password is checked, in one statement that
 * refuses while the address waits or is locked. No row lock outlives the statement, so none is
 * held across the password hashing.
 */
export async function reserveAccountAttempt(
  db: Executor,
  clock: Clock,
  email: string,
): Promise<Reservation> {
  const now = clock.now();
  const key = normaliseEmail(email);
  const [reserved] = await db
    .insert(accountThrottles)
    .values({ email: key, consecutiveFailures: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: accountThrottles.email,
      set: countedFailure(oneMore, now),
      setWhere: sql`${accountThrottles.lockedAt} is null
        and (${accountThrottles.blockedUntil} is null or ${accountThrottles.blockedUntil} <= ${at(now)})`,
    })
    .returning({ blockedUntil: accountThrottles.blockedUntil });
  if (!reserved) {
    const [row] = await db
      .select()
      .from(accountThrottles)
      .where(eq(accountThrottles.email, key))
      .limit(1);
    if (row?.lockedAt) {
      throw new AppError('TOO_MANY_REQUESTS', authMessages.accountLocked, 'locked');
    }
    throw tooMany((row?.blockedUntil?.getTime() ?? 0) - now.getTime());
  }
  const waitSetHere = reserved.blockedUntil;
  return {
    async giveBack() {
      // a row that counts only this attempt goes, so that sign-ins that never fail leave none
      const [gone] = await db
        .delete(accountThrottles)
        .where(
          and(
            eq(accountThrottles.email, key),
            lte(accountThrottles.consecutiveFailures, 1),
            isNull(accountThrottles.lockedAt),
          ),
        )
        .returning({ email: accountThrottles.email });
      if (gone) return;
      const fewer = sql`${accountThrottles.consecutiveFailures} - 1`;
      // The wait this attempt set goes, and so does any wait that a count without it would not
      // have; a wait set since by a later failure stays.
      await db
        .update(accountThrottles)
        .set({
          consecutiveFailures: sql`greatest(${fewer}, 0)`,
          blockedUntil: sql`case when ${fewer} < ${sql.raw(String(FREE_FAILURES))}
            ${waitSetHere ? sql`or ${accountThrottles.blockedUntil} = ${at(waitSetHere)}` : sql``}
            then null else ${accountThrottles.blockedUntil} end`,
          lockedAt: sql`case when ${fewer} < ${sql.raw(String(LOCK_AFTER_FAILURES))}
            then null else ${accountThrottles.lockedAt} end`,
        })
        .where(eq(accountThrottles.email, key));
    },
  };
}

/** A failure that was not reserved (a wrong code): counted, with its wait, in one statement. */
export async function recordAccountFailure(tx: Executor, clock: Clock, email: string) {
  const now = clock.now();
  await tx
    .insert(accountThrottles)
    .values({ email: normaliseEmail(email), consecutiveFailures: 1, updatedAt: now })
    .onConflictDoUpdate({ target: accountThrottles.email, set: countedFailure(oneMore, now) });
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
