import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { AppDeps } from '../../deps';
import { givenBackIfRefused, reserveRateLimitHit } from '../../lib/rate-limit';
import type { AccessTokens } from '../auth/access-token';
import { findChallenge, openChallenge, refuseCode, reserveCodeAttempt } from '../auth/challenges';
import { completeSignIn, type CompletedLogin } from '../auth/complete-sign-in';
import type { SignInClient } from '../auth/sign-in-record';
import { checkPasskeySignIn, passkeySignInOptions } from './sign-in';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

/**
 * Step two's options for an account with a passkey: only for a pending sign-in that still takes
 * a step two, counted against the address as the code step's status checks are.
 */
export async function passkeyOptionsForSignIn(deps: Deps, tempToken: string, ip: string) {
  await reserveRateLimitHit(deps.db, deps.clock, 'code-mail', ip);
  const { challenge } = openChallenge(await findChallenge(deps, tempToken), deps.clock.now());
  return passkeySignInOptions(deps, challenge);
}

/** Step two with a passkey's signature: a try on the challenge, as a code is (five at most). */
export async function verifyPasskeyLogin(
  deps: Deps,
  tokens: AccessTokens,
  input: { tempToken: string; credential: AuthenticationResponseJSON },
  client: SignInClient,
): Promise<CompletedLogin> {
  const { db, clock } = deps;
  const addressAttempt = await reserveRateLimitHit(db, clock, 'code', client.ip);
  const tried = await givenBackIfRefused(addressAttempt, () =>
    reserveCodeAttempt(deps, input.tempToken, clock.now()),
  );
  const check = await checkPasskeySignIn(deps, tried.challenge, input.credential);
  if (!check.matches) return refuseCode(deps, tried, client, check.refusal);
  await addressAttempt.giveBack();
  return completeSignIn(deps, tokens, tried, check, client);
}
