import { and, eq, isNull } from 'drizzle-orm';
import { authMessages, type User } from '@portal/contract';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activity/record';
import type { AccessTokens } from './access-token';
import { codeExpired } from './challenges';
import { getUser } from './profile';
import { loginChallenges } from './schema';
import { startSession, type IssuedSession } from './sessions';
import type { SignInClient } from './sign-in-record';
import { clearAccountFailures } from './throttle';

export interface CompletedLogin {
  token: string;
  user: User;
  session: IssuedSession;
}

/** A second step that matched, used once within the sign-in's transaction. */
export interface ClaimedStep {
  /** False when another request used it first. */
  claim(tx: Executor): Promise<boolean>;
  /** What a lost race answers, where it is not the wrong code's message. */
  refusal?: string;
}

/**
 * The end of a step two that matched: the challenge closed and the session started in one
 * transaction, so that two requests with the same code or passkey cannot both sign in.
 */
export async function completeSignIn(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tokens: AccessTokens,
  tried: {
    challenge: { id: string; customerId: string; rememberMe: boolean };
    email: string;
    comparedHash: string;
  },
  step: ClaimedStep | undefined,
  client: SignInClient,
): Promise<CompletedLogin> {
  const { db, clock } = deps;
  const { challenge, email, comparedHash } = tried;
  const session = await db.transaction(async (tx) => {
    // claimed with a condition, so that two requests with the same code cannot both sign in
    const [claimed] = await tx
      .update(loginChallenges)
      .set({ consumedAt: clock.now() })
      .where(
        and(
          eq(loginChallenges.id, challenge.id),
          isNull(loginChallenges.consumedAt),
          eq(loginChallenges.codeHash, comparedHash),
        ),
      )
      .returning({ id: loginChallenges.id });
    if (!claimed) return null;
    // the app's code, a recovery code or a passkey's signature serves one sign-in: of two at once, the first
    if (step && !(await step.claim(tx))) {
      throw new AppError('BAD_REQUEST', step.refusal ?? authMessages.invalidCode);
    }
    const issued = await startSession(
      tx,
      clock,
      challenge.customerId,
      challenge.rememberMe,
      client,
    );
    await clearAccountFailures(tx, email);
    await recordActivity(tx, clock, {
      customerId: challenge.customerId,
      type: 'signin',
      title: 'Signed in',
      description: 'You signed in to the portal.',
      status: 'success',
      details: { sessionId: issued.sessionId },
    });
    return issued;
  });
  if (!session) throw codeExpired();

  const token = await tokens.sign({
    customerId: challenge.customerId,
    sessionId: session.sessionId,
  });
  return { token, user: await getUser(db, clock, challenge.customerId), session };
}
