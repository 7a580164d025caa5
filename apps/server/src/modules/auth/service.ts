import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, lt, lte, sql } from 'drizzle-orm';
import {
  CODE_TTL_MS,
  RESEND_INTERVAL_MS,
  authMessages,
  type LoginRequestSchema,
  type User,
  twoFactorMessages,
} from '@portal/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { verifyAgainstDummy, verifyPassword } from '../../lib/password';
import { recordActivity } from '../activity/record';
import { mailStatus, type MailStatus } from '../mail/delivery';
import { appSignInCheck, secondFactorOf, type GivenCode } from '../two-factor/service';
import { recordSignInAttempt, type SignInClient } from './sign-in-record';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { customers } from '../users/schema';
import { findCustomerByEmail, normaliseEmail } from '../users/service';
import { getUser } from './profile';
import type { AccessTokens } from './access-token';
import { codeMailJobId, queueCodeMail } from './mails';
import { loginChallenges } from './schema';
import { codeHash, randomCode, randomToken, sameHash, sha256 } from './secrets';
import {
  revokeSession,
  rotateRefreshToken,
  sessionOfRefreshToken,
  startSession,
  type IssuedSession,
} from './sessions';
import { givenBackIfRefused, reserveRateLimitHit } from '../../lib/rate-limit';
import { clearAccountFailures, recordAccountFailure, reserveAccountAttempt } from './throttle';

export const MAX_CODE_ATTEMPTS = 5;
export const MAX_RESENDS = 5;

export type ServiceDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'queue' | 'consents'>;
type LoginInput = z.output<typeof LoginRequestSchema>;

const invalidLogin = () => new AppError('UNAUTHORIZED', authMessages.invalidLogin);
const codeExpired = () => new AppError('BAD_REQUEST', authMessages.codeExpired);
const tooManyCodes = () => new AppError('BAD_REQUEST', authMessages.tooManyCodes);

// People type these with spaces or in lower case; the stored values are canonical.
const squash = (value: string) => value.replace(/[\s-]/g, '');
const sameMobile = (a: string, b: string) => squash(a) === squash(b);
const sameGst = (a: string, b: string) => squash(a).toUpperCase() === squash(b).toUpperCase();
const sameSerial = (a: string, b: string) => squash(a) === squash(b);

/** What a refused step leaves in the account: its activity event and its sign-in history row. */
async function recordSignInFailure(
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
    sameMobile(customer.mobile, input.mobile) &&
    sameGst(customer.gstNo, input.gstNo) &&
    sameSerial(customer.tallySerialNo, input.tally_serialno);

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

async function findChallenge(deps: ServiceDeps, tempToken: string) {
  const [row] = await deps.db
    .select({ challenge: loginChallenges, email: customers.email })
    .from(loginChallenges)
    .innerJoin(customers, eq(customers.id, loginChallenges.customerId))
    .where(eq(loginChallenges.tokenHash, sha256(tempToken)))
    .limit(1);
  return row;
}

type FoundChallenge = NonNullable<Awaited<ReturnType<typeof findChallenge>>>;

/** The challenge, if it still takes codes now; otherwise the reason it does not. */
function openChallenge(found: FoundChallenge | undefined, now: Date): FoundChallenge {
  if (!found || found.challenge.consumedAt) throw codeExpired();
  if (found.challenge.attempts >= MAX_CODE_ATTEMPTS) throw tooManyCodes();
  if (now >= found.challenge.expiresAt) throw codeExpired();
  return found;
}

/** The same rules in SQL, for the statements that decide. */
const stillOpen = (id: string, now: Date) =>
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
async function reserveCodeAttempt(deps: ServiceDeps, tempToken: string, now: Date) {
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

export interface CompletedLogin {
  token: string;
  user: User;
  session: IssuedSession;
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
  const app = await appSignInCheck(deps, challenge.customerId, givenCode(input));
  const matches = app
    ? app.matches
    : 'verificationCode' in input &&
      sameHash(codeHash(challenge.id, input.verificationCode), comparedHash);
  if (!matches) {
    await db.transaction(async (tx) => {
      await recordAccountFailure(tx, clock, email);
      await recordSignInFailure(tx, clock, challenge.customerId, { ip, userAgent }, 'wrong_code');
    });
    if (attempts >= MAX_CODE_ATTEMPTS) throw tooManyCodes();
    throw new AppError('BAD_REQUEST', authMessages.invalidCode);
  }
  await addressAttempt.giveBack();

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
    // the app's code or a recovery code serves one sign-in: of two at once, the first
    if (app && !(await app.claim(tx))) {
      throw new AppError('BAD_REQUEST', authMessages.invalidCode);
    }
    const issued = await startSession(tx, clock, challenge.customerId, challenge.rememberMe, {
      ip,
      userAgent,
    });
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
  if ((await secondFactorOf(db, challenge.customerId)) === 'app') {
    throw new AppError('BAD_REQUEST', twoFactorMessages.noEmailCode);
  }
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
  if ((await secondFactorOf(db, challenge.customerId)) === 'app') {
    throw new AppError('BAD_REQUEST', twoFactorMessages.noEmailCode);
  }
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
