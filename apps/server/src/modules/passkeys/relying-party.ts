import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import type { Config } from '../../config';
import { BRAND } from '../mail/layout';
import { passkeyChallenges } from './schema';

/**
 * Who the passkeys are for: the portal's public address. A passkey made for it signs only for
 * it, so a look-alike site's page gets nothing it could use here.
 */
export function relyingParty(config: Pick<Config, 'PUBLIC_URL'>) {
  const url = new URL(config.PUBLIC_URL);
  return { id: url.hostname, origin: url.origin, name: BRAND.name };
}

/** Why a challenge's answer was refused before its signature was looked at. */
export interface ChallengeUse {
  found: boolean;
}

/**
 * The check of the challenge the browser signed: the one handed out for this customer (and for
 * this pending sign-in, or for a registration when `loginChallengeId` is null), still in time,
 * removed as it is used, so that an answer replayed finds nothing.
 */
export function challengeClaim(
  db: Executor,
  now: Date,
  customerId: string,
  loginChallengeId: string | null,
  use: ChallengeUse,
) {
  return async (challenge: string): Promise<boolean> => {
    const [used] = await db
      .delete(passkeyChallenges)
      .where(
        and(
          eq(passkeyChallenges.challenge, challenge),
          eq(passkeyChallenges.customerId, customerId),
          loginChallengeId === null
            ? isNull(passkeyChallenges.loginChallengeId)
            : eq(passkeyChallenges.loginChallengeId, loginChallengeId),
          gt(passkeyChallenges.expiresAt, now),
        ),
      )
      .returning({ challenge: passkeyChallenges.challenge });
    use.found = used !== undefined;
    return use.found;
  };
}
