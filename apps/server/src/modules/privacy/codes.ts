import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { privacyMessages } from '@portal/contract';
import type { AppDeps } from '../../deps';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import { verifyPassword } from '../../lib/password';
import { randomCode, sameHash, sha256 } from '../auth/secrets';
import { reserveRateLimitHit } from '../../lib/rate-limit';
import { enqueueMail } from '../mail/delivery';
import { privacyCodes } from './schema';

export type CodePurpose = 'close-account' | 'email-change';

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_RESEND_MS = 60_000;
export const MAX_CODE_TRIES = 5;

type Deps = Pick<AppDeps, 'db' | 'clock' | 'queue' | 'consents' | 'config'>;

/**
 * The password asked again by a privacy step, counted before it is hashed against the customer's
 * limit of wrong entries (20 in 15 minutes, the authenticator app's limit): a stolen session
 * cannot guess the password through these steps. A right password gives its count back.
 */
export async function checkPassword(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  customerId: string,
  passwordHash: string,
  password: string,
) {
  const attempt = await reserveRateLimitHit(deps.db, deps.clock, 'code', `privacy:${customerId}`);
  if (!(await verifyPassword(passwordHash, password))) {
    throw new AppError('BAD_REQUEST', privacyMessages.wrongPassword);
  }
  await attempt.giveBack();
}

/** Binds a code to its customer, its step and the address it confirms: it fits nothing else. */
const hashOf = (customerId: string, purpose: CodePurpose, newEmail: string | null, code: string) =>
  // Stryker disable next-line StringLiteral: no address stands for the same text when issued and checked; which text does not matter
  sha256(`${customerId}:${purpose}:${newEmail ?? ''}:${code}`);

/**
 * Mails a new code for `purpose` to `to`, replacing any earlier one. One code a minute: a
 * customer (or a stolen session) cannot flood a mailbox.
 */
export async function issueCode(
  deps: Deps,
  customerId: string,
  purpose: CodePurpose,
  to: string,
  newEmail: string | null = null,
) {
  const now = deps.clock.now();
  const code = randomCode();
  const values = {
    codeHash: hashOf(customerId, purpose, newEmail, code),
    newEmail,
    attempts: 0,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    createdAt: now,
  };
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(privacyCodes)
      .values({ customerId, purpose, ...values })
      .onConflictDoUpdate({
        target: [privacyCodes.customerId, privacyCodes.purpose],
        set: values,
        // the row written in the last minute is kept, and nothing is sent
        setWhere: lt(privacyCodes.createdAt, new Date(now.getTime() - CODE_RESEND_MS)),
      })
      .returning({ createdAt: privacyCodes.createdAt });
    if (!row) throw new AppError('TOO_MANY_REQUESTS', privacyMessages.waitForCode);
    await enqueueMail(tx, deps, {
      template: 'privacy',
      to,
      data: {
        kind: purpose === 'close-account' ? 'close-account-code' : 'email-change-code',
        code,
      },
    });
  });
}

/**
 * Checks a code, counting the try whatever the outcome, outside any transaction so that a wrong
 * try stays counted. Answers the hash to consume and the address the code confirms.
 */
export async function checkCode(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  customerId: string,
  purpose: CodePurpose,
  code: string,
) {
  const mine = and(eq(privacyCodes.customerId, customerId), eq(privacyCodes.purpose, purpose));
  const [row] = await deps.db
    .update(privacyCodes)
    .set({ attempts: sql`${privacyCodes.attempts} + 1` })
    .where(
      and(
        mine,
        gt(privacyCodes.expiresAt, deps.clock.now()),
        lt(privacyCodes.attempts, MAX_CODE_TRIES),
      ),
    )
    .returning({ codeHash: privacyCodes.codeHash, newEmail: privacyCodes.newEmail });
  if (!row) {
    const [held] = await deps.db
      .select({ attempts: privacyCodes.attempts })
      .from(privacyCodes)
      .where(mine);
    if (!held) throw new AppError('BAD_REQUEST', privacyMessages.noCode);
    if (held.attempts >= MAX_CODE_TRIES) {
      throw new AppError('TOO_MANY_REQUESTS', privacyMessages.tooManyTries);
    }
    throw new AppError('BAD_REQUEST', privacyMessages.wrongCode);
  }
  if (!sameHash(row.codeHash, hashOf(customerId, purpose, row.newEmail, code))) {
    throw new AppError('BAD_REQUEST', privacyMessages.wrongCode);
  }
  return row;
}

/** Uses the checked code up inside the change's transaction; of two at once, one gets it. */
export async function consumeCode(
  tx: Executor,
  customerId: string,
  purpose: CodePurpose,
  codeHash: string,
) {
  const used = await tx
    .delete(privacyCodes)
    .where(
      and(
        eq(privacyCodes.customerId, customerId),
        eq(privacyCodes.purpose, purpose),
        eq(privacyCodes.codeHash, codeHash),
      ),
    )
    .returning({ customerId: privacyCodes.customerId });
  if (used.length === 0) throw new AppError('BAD_REQUEST', privacyMessages.wrongCode);
}
