import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { authMessages } from '@portal/contract';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { Clock } from '../../lib/clock';
import { recordActivity } from '../activity/record';
import { customers } from '../users/schema';
import type { AppDeps } from '../../deps';
import { loginChallenges } from './schema';
import { sha256 } from './secrets';
import { recordSignInAttempt, type SignInClient } from './sign-in-record';
import { recordAccountFailure } from './throttle';

/** A pending sign-in's step two: its challenge, tried at most this many times. */
export const MAX_CODE_ATTEMPTS = 5;

export const codeExpired = () => new AppError('BAD_REQUEST', authMessages.codeExpired);
const tooManyCodes = () => new AppError('BAD_REQUEST', authMessages.tooManyCodes);

/** What a refused step leaves in the account: its activity event and its sign-in history row. */
export async function recordSignInFailure(
  tx: Executor,
  clock: Clock,
  customerId: string,
  client: SignInClient,
  outcome: 'wrong_password' | 'wrong_code',
) {
  await recordActivity(tx, clock, {
    customerId,
    type: 'signin_failed',
    title: 'Sign-in failed',
    description:
      outcome === 'wrong_password'
        ? 'Someone tried to sign in to your account with incorrect details.'
        : 'An incorrect verification code was entered.',
    status: 'failed',
  });
  await recordSignInAttempt(tx, clock, { customerId, outcome, client });
}

export async function findChallenge(deps: Pick<AppDeps, 'db'>, tempToken: string) {
  const [row] = await deps.db
    .select({ challenge: loginChallenges, email: customers.email })
    .from(loginChallenges)
    .innerJoin(customers, eq(customers.id, loginChallenges.customerId))
    .where(eq(loginChallenges.tokenHash, sha256(tempToken)))
    .limit(1);
  return row;
}

export type FoundChallenge = NonNullable<Awaited<ReturnType<typeof findChallenge>>>;

/** The challenge, if it still takes codes now; otherwise the reason it does not. */
export function openChallenge(found: FoundChallenge | undefined, now: Date): FoundChallenge {
  if (!found || found.challenge.consumedAt) throw codeExpired();
  if (found.challenge.attempts >= MAX_CODE_ATTEMPTS) throw tooManyCodes();
  if (now >= found.challenge.expiresAt) throw codeExpired();
  return found;
}

/** The same rules in SQL, for the statements that decide. */
export const stillOpen = (id: string, now: Date) =>
  and(
    eq(loginChallenges.id, id),
    isNull(loginChallenges.consumedAt),
    lt(loginChallenges.attempts, MAX_CODE_ATTEMPTS),
    gt(loginChallenges.expiresAt, now),
  );

/**
 * Counts a try on the challenge before its code is compared, so that codes arriving together
 * get at most five comparisons; answers the code hash this try is compared with.
 */
export async function reserveCodeAttempt(deps: Pick<AppDeps, 'db'>, tempToken: string, now: Date) {
  const { challenge, email } = openChallenge(await findChallenge(deps, tempToken), now);
  const [reserved] = await deps.db
    .update(loginChallenges)
    .set({ attempts: sql`${loginChallenges.attempts} + 1` })
    .where(stillOpen(challenge.id, now))
    .returning({ attempts: loginChallenges.attempts, codeHash: loginChallenges.codeHash });
  if (!reserved) {
    // another request changed the challenge in between: tell why it is closed now
    openChallenge(await findChallenge(deps, tempToken), now);
    throw codeExpired();
  }
  return { challenge, email, attempts: reserved.attempts, comparedHash: reserved.codeHash };
}

/** A step two that did not match: counted against the account and recorded; the refusal thrown. */
export async function refuseCode(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tried: { challenge: { customerId: string }; email: string; attempts: number },
  client: SignInClient,
  message: string,
): Promise<never> {
  await deps.db.transaction(async (tx) => {
    await recordAccountFailure(tx, deps.clock, tried.email);
    await recordSignInFailure(tx, deps.clock, tried.challenge.customerId, client, 'wrong_code');
  });
  if (tried.attempts >= MAX_CODE_ATTEMPTS) throw tooManyCodes();
  throw new AppError('BAD_REQUEST', message);
}
