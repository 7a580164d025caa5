import { and, eq } from 'drizzle-orm';
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { PASSKEY_CHALLENGE_TTL_MS, passkeyMessages } from '@portal/contract';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { challengeClaim, relyingParty, type ChallengeUse } from './relying-party';
import { passkeyChallenges, passkeys } from './schema';
import { passkeyRowsOf, transportsOf } from './service';

type SignInDeps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

/** The pending sign-in a passkey is to finish. */
export interface PendingSignIn {
  id: string;
  customerId: string;
}

/** The options for the browser to sign with one of the customer's passkeys, for this sign-in. */
export async function passkeySignInOptions(
  deps: SignInDeps,
  pending: PendingSignIn,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const rows = await passkeyRowsOf(deps.db, pending.customerId);
  if (rows.length === 0) throw new AppError('BAD_REQUEST', passkeyMessages.notVerified);
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps.config).id,
    allowCredentials: rows.map((row) => ({ id: row.credentialId, transports: transportsOf(row) })),
    userVerification: 'preferred',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  });
  const now = deps.clock.now();
  await deps.db.insert(passkeyChallenges).values({
    challenge: options.challenge,
    customerId: pending.customerId,
    loginChallengeId: pending.id,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
    createdAt: now,
  });
  return options;
}

/** A passkey's signature checked for a sign-in, used by `claim` within its transaction. */
export interface PasskeyCheck {
  matches: boolean;
  claim(tx: Executor): Promise<boolean>;
  refusal: string;
}

const refused: PasskeyCheck = {
  matches: false,
  // Stryker disable next-line BooleanLiteral: the sign-in reads `matches` first and never claims a refused signature
  claim: async () => false,
  refusal: passkeyMessages.notVerified,
};

/**
 * The browser's signature, checked against one of this customer's passkeys (another
 * customer's credential is not looked at), the challenge handed out for this sign-in (used
 * once), this portal's origin and relying party, and the signature counter: a counter that
 * does not move on from the stored one is a cloned authenticator's, and refused.
 */
export async function checkPasskeySignIn(
  deps: SignInDeps,
  pending: PendingSignIn,
  response: AuthenticationResponseJSON,
): Promise<PasskeyCheck> {
  const [row] = await deps.db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.credentialId, response.id), eq(passkeys.customerId, pending.customerId)))
    .limit(1);
  if (!row) return refused;
  const rp = relyingParty(deps.config);
  const now = deps.clock.now();
  const use: ChallengeUse = { found: false };
  const verified = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challengeClaim(deps.db, now, pending.customerId, pending.id, use),
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: row.credentialId,
      publicKey: isoBase64URL.toBuffer(row.publicKey),
      counter: row.signCount,
      transports: transportsOf(row),
    },
    requireUserVerification: false,
  }).catch(() => ({ verified: false as const }));
  if (!verified.verified) {
    return use.found ? refused : { ...refused, refusal: passkeyMessages.challengeExpired };
  }
  const { newCounter, credentialBackedUp } = verified.authenticationInfo;
  return {
    matches: true,
    refusal: passkeyMessages.notVerified,
    async claim(tx) {
      // from the counter checked only: of two signatures checked against it, one signs in
      const [used] = await tx
        .update(passkeys)
        .set({ signCount: newCounter, lastUsedAt: now, backedUp: credentialBackedUp })
        .where(and(eq(passkeys.id, row.id), eq(passkeys.signCount, row.signCount)))
        .returning({ id: passkeys.id });
      return used !== undefined;
    },
  };
}
