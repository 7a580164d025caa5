import { randomUUID } from 'node:crypto';
import { and, lt, lte, sql } from 'drizzle-orm';
import {
  CODE_TTL_MS,
  RESEND_INTERVAL_MS,
  authMessages,
  passkeyMessages,
  type LoginRequestSchema,
  twoFactorMessages,
} from '@portal/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import { verifyAgainstDummy, verifyPassword } from '../../lib/password';
import { givenBackIfRefused, reserveRateLimitHit } from '../../lib/rate-limit';
import { mailStatus, type MailStatus } from '../mail/delivery';
import { signInCodeCheck, secondFactorOf, type GivenCode } from '../two-factor/service';
import { findCustomerByEmail, normaliseEmail, squashDetail } from '../users/service';
import type { AccessTokens } from './access-token';
import {
  codeExpired,
  findChallenge,
  openChallenge,
  recordSignInFailure,
  refuseCode,
  reserveCodeAttempt,
  stillOpen,
  type FoundChallenge,
} from './challenges';
import { completeSignIn, type CompletedLogin } from './complete-sign-in';
import { codeMailJobId, queueCodeMail } from './mails';
import { loginChallenges } from './schema';
import { codeHash, randomCode, randomToken, sameHash, sha256 } from './secrets';
import {
  revokeSession,
  rotateRefreshToken,
  sessionOfRefreshToken,
  type IssuedSession,
} from './sessions';
import { reserveAccountAttempt } from './throttle';

export { MAX_CODE_ATTEMPTS } from './challenges';
export const MAX_RESENDS = 5;

export type ServiceDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'queue' | 'consents'>;
type LoginInput = z.output<typeof LoginRequestSchema>;

const invalidLogin = () => new AppError('UNAUTHORIZED', authMessages.invalidLogin);

// People type these with spaces or in lower case; the stored values are canonical.
const sameSquashed = (a: string, b: string) => squashDetail(a) === squashDetail(b);
const sameGst = (a: string, b: string) =>
  squashDetail(a).toUpperCase() === squashDetail(b).toUpperCase();

/**
 * Step one: every credential together; answers a handle to the challenge and mails the code.
 * `afterAnswer` takes what is done only once the answer is sent.
 */
export async function startLogin(
  deps: ServiceDeps,
  input: LoginInput,
  ip: string,
  userAgent: string | undefined,
  afterAnswer: (work: () => Promise<void>) => void,
) {
  const { db, clock } = deps;
  const email = normaliseEmail(input.email);
  // both limits count this attempt before the password is hashed; success gives the counts back
  const addressAttempt = await reserveRateLimitHit(db, clock, 'login', ip);
  const accountAttempt = await givenBackIfRefused(addressAttempt, () =>
    reserveAccountAttempt(db, clock, email),
  );

  const customer = await findCustomerByEmail(db, email);
  const passwordOk = customer
    ? await verifyPassword(customer.passwordHash, input.password)
    : await verifyAgainstDummy(input.password);
  const matches =
    customer !== undefined &&
    passwordOk &&
    sameSquashed(customer.mobile, input.mobile) &&
    sameGst(customer.gstNo, input.gstNo) &&
    sameSquashed(customer.tallySerialNo, input.tally_serialno);

  if (!matches) {
    // recorded after the answer: until it is sent, an address with an account and one without
    // do the same work, so that neither the answer nor its timing tells them apart
    if (customer) {
      afterAnswer(() =>
        db.transaction((tx) =>
          recordSignInFailure(tx, clock, customer.id, { ip, userAgent }, 'wrong_password'),
        ),
      );
    }
    throw invalidLogin();
  }
  await Promise.all([addressAttempt.giveBack(), accountAttempt.giveBack()]);
  const secondFactor = await secondFactorOf(db, customer.id);

  const now = clock.now();
  const id = randomUUID();
  const tempToken = randomToken();
  const code = randomCode();
  await db.transaction(async (tx) => {
    await tx.insert(loginChallenges).values({
      id,
      customerId: customer.id,
      tokenHash: sha256(tempToken),
      codeHash: codeHash(id, code),
      codeSentAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      rememberMe: input.rememberMe,
      createdAt: now,
    });
    // queued, not sent: a slow or absent mail server never holds up a sign-in
    // an account with the authenticator app gets no mail: its code is in the app
    if (secondFactor === 'email') {
      await queueCodeMail(tx, deps, customer.email, code, codeMailJobId(id, 0));
    }
  });
  // a code is awaited: this instance's worker sends it now rather than at its next look
  deps.queue.wake('mail');
  return { tempToken, secondFactor };
}

type CodeInput = { tempToken: string } & ({ verificationCode: string } | { recoveryCode: string });

const givenCode = (input: CodeInput): GivenCode =>
  'recoveryCode' in input
    ? { kind: 'recovery', code: input.recoveryCode }
    : { kind: 'app', code: input.verificationCode };

/** Step two: the e-mailed code (or the app's, or a recovery code), at most five tries per challenge. */
export async function verifyLogin(
  deps: ServiceDeps & Pick<AppDeps, 'secrets'>,
  tokens: AccessTokens,
  input: CodeInput,
  ip: string,
  userAgent: string | undefined,
): Promise<CompletedLogin> {
  const { db, clock } = deps;
  // counted before the comparison; a refused or a right code gives it back
  const addressAttempt = await reserveRateLimitHit(db, clock, 'code', ip);
  const { challenge, email, attempts, comparedHash } = await givenBackIfRefused(
    addressAttempt,
    () => reserveCodeAttempt(deps, input.tempToken, clock.now()),
  );

  // the request schema has trimmed the code already
  const app = await signInCodeCheck(deps, challenge.customerId, givenCode(input));
  const matches = app
    ? app.matches
    : 'verificationCode' in input &&
      sameHash(codeHash(challenge.id, input.verificationCode), comparedHash);
  if (!matches) {
    return refuseCode(
      deps,
      { challenge, email, attempts },
      { ip, userAgent },
      authMessages.invalidCode,
    );
  }
  await addressAttempt.giveBack();
  return completeSignIn(deps, tokens, { challenge, email, comparedHash }, app, { ip, userAgent });
}

/** An account that signs in with its app or a passkey is sent no code. */
async function refuseUnlessEmailCode(db: Executor, customerId: string) {
  const factor = await secondFactorOf(db, customerId);
  if (factor === 'app') throw new AppError('BAD_REQUEST', twoFactorMessages.noEmailCode);
  if (factor === 'passkey') throw new AppError('BAD_REQUEST', passkeyMessages.noEmailCode);
}

/** The challenge, if it may have a new code now; otherwise the reason it may not. */
function resendableChallenge(found: FoundChallenge | undefined, now: Date): FoundChallenge {
  const open = openChallenge(found, now);
  if (open.challenge.resendCount >= MAX_RESENDS) {
    throw new AppError('TOO_MANY_REQUESTS', authMessages.tooManyResends, 'resend_limit');
  }
  const waitMs = open.challenge.codeSentAt.getTime() + RESEND_INTERVAL_MS - now.getTime();
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `Please wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'} before requesting a new code.`,
      'resend_wait',
      seconds,
    );
  }
  return open;
}

/** A new code replaces the old one; at most one a minute and five per challenge. */
export async function resendCode(deps: ServiceDeps, tempToken: string) {
  const { db, clock } = deps;
  const now = clock.now();
  const { challenge, email } = resendableChallenge(await findChallenge(deps, tempToken), now);
  await refuseUnlessEmailCode(db, challenge.customerId);
  const code = randomCode();
  // every limit again in the statement, so that resends arriving together send one code
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(loginChallenges)
      .set({
        codeHash: codeHash(challenge.id, code),
        codeSentAt: now,
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
        resendCount: sql`${loginChallenges.resendCount} + 1`,
      })
      .where(
        and(
          stillOpen(challenge.id, now),
          lt(loginChallenges.resendCount, MAX_RESENDS),
          lte(loginChallenges.codeSentAt, new Date(now.getTime() - RESEND_INTERVAL_MS)),
        ),
      )
      .returning({ id: loginChallenges.id, resendCount: loginChallenges.resendCount });
    if (row) await queueCodeMail(tx, deps, email, code, codeMailJobId(row.id, row.resendCount));
    return row;
  });
  if (!updated) {
    // another resend or a code came first: tell why it may not have one now
    resendableChallenge(await findChallenge(deps, tempToken), now);
    throw codeExpired();
  }
  deps.queue.wake('mail');
}

/**
 * Where the mail of the challenge's newest code is, for the code step to tell a customer whose
 * code cannot be sent. Only the holder of the challenge's token learns it, and only of its own
 * mail; a challenge that takes no codes any more answers why, as a code would be.
 */
export async function codeMailStatus(
  deps: ServiceDeps,
  tempToken: string,
  ip: string,
): Promise<MailStatus> {
  const { db, clock } = deps;
  await reserveRateLimitHit(db, clock, 'code-mail', ip);
  const { challenge } = openChallenge(await findChallenge(deps, tempToken), clock.now());
  await refuseUnlessEmailCode(db, challenge.customerId);
  return mailStatus(deps, codeMailJobId(challenge.id, challenge.resendCount));
}

export interface RefreshedSession {
  token: string;
  session: IssuedSession;
}

export async function refreshSession(
  deps: ServiceDeps,
  tokens: AccessTokens,
  presented: string | undefined,
): Promise<RefreshedSession> {
  if (!presented) throw new AppError('UNAUTHORIZED', authMessages.sessionExpired);
  const outcome = await rotateRefreshToken(deps.db, deps.clock, presented);
  if (!outcome.ok) throw new AppError('UNAUTHORIZED', authMessages.sessionExpired);
  const token = await tokens.sign({
    customerId: outcome.customerId,
    sessionId: outcome.session.sessionId,
  });
  return { token, session: outcome.session };
}

/** Ends the session of the cookie, or of the bearer token when there is no cookie. */
export async function logout(
  deps: ServiceDeps,
  tokens: AccessTokens,
  refreshToken: string | undefined,
  bearer: string | undefined,
) {
  let sessionId = refreshToken ? await sessionOfRefreshToken(deps.db, refreshToken) : undefined;
  if (!sessionId && bearer) {
    sessionId = await tokens.verify(bearer).then(
      (claims) => claims.sessionId,
      () => undefined,
    );
  }
  if (!sessionId) return;
  const ended = sessionId;
  // the session's end and its audit row land together, or neither does
  await deps.db.transaction((tx) => revokeSession(tx, deps.clock, ended, 'logout'));
}
