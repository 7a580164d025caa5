import { and, eq, gt, isNull } from 'drizzle-orm';
import { authMessages } from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { isCommonPassword } from '../../lib/common-passwords';
import { hashPassword, verifyPassword } from '../../lib/password';
import { recordActivity } from '../activity/record';
import { recordAudit } from '../audit/record';
import { customers, type Customer } from '../users/schema';
import { findCustomerById, lockCustomerByEmail, setPasswordHash } from '../users/service';
import { queuePasswordNotice, queueResetMail } from './mails';
import { passwordResetTokens } from './schema';
import { randomToken, sha256 } from './secrets';
import type { ServiceDeps } from './service';
import { revokeCustomerSessions } from './sessions';
import { reserveRateLimitHit } from '../../lib/rate-limit';
import { reserveAccountAttempt, unlockAccount } from './throttle';

export const RESET_TOKEN_TTL_MS = 30 * 60_000;
/** One reset mail a minute per account is plenty for a person and useless for mail-bombing. */
const RESET_MAIL_INTERVAL_MS = 60_000;

type Log = Pick<FastifyBaseLogger, 'warn'>;

const resetLink = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/$/, '')}/reset-password?token=${encodeURIComponent(token)}`;

/** Any password change voids the links issued before it. */
async function voidResetTokens(tx: Executor, clock: Clock, customerId: string) {
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: clock.now() })
    .where(and(eq(passwordResetTokens.customerId, customerId), isNull(passwordResetTokens.usedAt)));
}

/** Only the newest link works. */
async function issueResetToken(tx: Executor, clock: Clock, customerId: string) {
  await voidResetTokens(tx, clock, customerId);
  const token = randomToken();
  const now = clock.now();
  await tx.insert(passwordResetTokens).values({
    customerId,
    tokenHash: sha256(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
  });
  return token;
}

export async function changePassword(
  deps: ServiceDeps,
  input: {
    customerId: string;
    sessionId: string;
    targetId: string;
    currentPassword: string;
    password: string;
  },
) {
  const { db, clock } = deps;
  if (input.targetId !== input.customerId) {
    throw new AppError('FORBIDDEN', authMessages.notYourAccount);
  }
  refuseCommonPassword(input.password);
  const customer = await findCustomerById(db, input.customerId);
  if (!customer) throw new AppError('UNAUTHORIZED', authMessages.sessionExpired);
  // a stolen access token must not become a way to guess the password: counted like a sign-in
  const attempt = await reserveAccountAttempt(db, clock, customer.email);
  if (!(await verifyPassword(customer.passwordHash, input.currentPassword))) {
    await recordAudit(db, clock, {
      actor: 'customer',
      customerId: customer.id,
      action: 'password_changed',
      outcome: 'failure',
      details: { reason: 'wrong_password' },
    });
    throw new AppError('BAD_REQUEST', authMessages.currentPasswordIncorrect);
  }
  await attempt.giveBack();
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await setPasswordHash(tx, clock, customer.id, passwordHash);
    await revokeCustomerSessions(tx, clock, customer.id, 'password_changed', input.sessionId);
    await voidResetTokens(tx, clock, customer.id);
    await recordAudit(tx, clock, {
      actor: 'customer',
      customerId: customer.id,
      action: 'password_changed',
    });
    await recordActivity(tx, clock, {
      customerId: customer.id,
      type: 'password_changed',
      title: 'Password changed',
      description: 'Your password was changed. Other signed-in browsers were signed out.',
      status: 'success',
    });
    await queuePasswordNotice(tx, deps, customer.email, 'changed', clock.now());
  });
}

/**
 * The request path of "forgot password": only the count per client address, the same work for
 * every address typed. The rest happens after the answer, in `mailResetLink`.
 */
export async function countResetRequest(deps: ServiceDeps, ip: string) {
  await reserveRateLimitHit(deps.db, deps.clock, 'reset', ip);
}

/**
 * After the answer: mails a reset link when an account has the address, at most one a minute.
 * Never throws; a failure is logged.
 */
export async function mailResetLink(deps: ServiceDeps, log: Log, email: string) {
  const { db, clock } = deps;
  try {
    await db.transaction(async (tx) => {
      // locked, so that requests arriving together issue one link
      const customer = await lockCustomerByEmail(tx, email);
      if (!customer) return;
      const [recent] = await tx
        .select(
          // Stryker disable next-line ObjectLiteral: only whether a row comes back is read
          { id: passwordResetTokens.id },
        )
        .from(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.customerId, customer.id),
            isNull(passwordResetTokens.usedAt),
            gt(
              passwordResetTokens.createdAt,
              new Date(clock.now().getTime() - RESET_MAIL_INTERVAL_MS),
            ),
          ),
        )
        .limit(1);
      if (recent) return;
      const token = await issueResetToken(tx, clock, customer.id);
      await queueResetMail(tx, deps, customer.email, resetLink(deps.config.PUBLIC_URL, token));
      // whoever typed the address: the account's holder, or someone who knows it
      await recordAudit(tx, clock, {
        actor: 'customer',
        customerId: customer.id,
        action: 'password_reset_link_sent',
      });
    });
  } catch (error) {
    log.warn({ reason: (error as Error).message }, 'reset link failed');
  }
}

/** A new password on the breached-password list is refused before anything changes. */
function refuseCommonPassword(password: string) {
  if (isCommonPassword(password)) throw new AppError('BAD_REQUEST', authMessages.commonPassword);
}

export async function resetPassword(
  deps: ServiceDeps,
  input: { token: string; newPassword: string },
  ip: string,
) {
  const { db, clock } = deps;
  await reserveRateLimitHit(db, clock, 'reset', ip);
  const invalid = () => new AppError('BAD_REQUEST', authMessages.resetLinkInvalid);
  const [row] = await db
    .select({
      id: passwordResetTokens.id,
      customer: customers,
      expiresAt: passwordResetTokens.expiresAt,
      usedAt: passwordResetTokens.usedAt,
    })
    .from(passwordResetTokens)
    .innerJoin(customers, eq(customers.id, passwordResetTokens.customerId))
    .where(eq(passwordResetTokens.tokenHash, sha256(input.token)))
    .limit(1);
  if (!row || row.usedAt || clock.now() >= row.expiresAt) throw invalid();
  // refused before the link is used: it still works for a better password
  refuseCommonPassword(input.newPassword);
  const { customer } = row;
  const passwordHash = await hashPassword(input.newPassword);
  const done = await db.transaction(async (tx) => {
    // claimed with a condition, so that a link used twice at once sets the password once
    const [claimed] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: clock.now() })
      .where(and(eq(passwordResetTokens.id, row.id), isNull(passwordResetTokens.usedAt)))
      .returning({ id: passwordResetTokens.id });
    if (!claimed) return false;
    await applyNewPassword(tx, clock, customer, passwordHash, 'password_reset');
    await recordAudit(tx, clock, {
      actor: 'customer',
      customerId: customer.id,
      action: 'password_reset',
      details: { via: 'email_link' },
    });
    await recordActivity(tx, clock, {
      customerId: customer.id,
      type: 'password_reset',
      title: 'Password reset',
      description:
        'Your password was reset by e-mail link. Every signed-in browser was signed out.',
      status: 'success',
    });
    await queuePasswordNotice(tx, deps, customer.email, 'reset', clock.now());
    return true;
  });
  if (!done) throw invalid();
}

async function applyNewPassword(
  tx: Executor,
  clock: Clock,
  customer: Customer,
  passwordHash: string,
  reason: 'password_reset' | 'operator',
) {
  await setPasswordHash(tx, clock, customer.id, passwordHash);
  await voidResetTokens(tx, clock, customer.id);
  await revokeCustomerSessions(tx, clock, customer.id, reason);
  await unlockAccount(tx, customer.email);
}

/** Operator: sets a password the operator passes on; every session ends. */
export async function operatorSetPassword(deps: ServiceDeps, customer: Customer, password: string) {
  const passwordHash = await hashPassword(password);
  await deps.db.transaction(async (tx) => {
    await applyNewPassword(tx, deps.clock, customer, passwordHash, 'operator');
    await recordAudit(tx, deps.clock, {
      actor: 'operator',
      customerId: customer.id,
      action: 'password_reset',
      details: { via: 'operator' },
    });
    await recordActivity(tx, deps.clock, {
      customerId: customer.id,
      type: 'password_reset',
      title: 'Password reset',
      description: 'Your password was reset by support. Every signed-in browser was signed out.',
      status: 'success',
    });
  });
}

/** Operator: mails the customer a reset link; every session ends now. */
export async function operatorSendResetLink(deps: ServiceDeps, customer: Customer) {
  await deps.db.transaction(async (tx) => {
    await revokeCustomerSessions(tx, deps.clock, customer.id, 'operator');
    const token = await issueResetToken(tx, deps.clock, customer.id);
    await queueResetMail(tx, deps, customer.email, resetLink(deps.config.PUBLIC_URL, token));
    await recordAudit(tx, deps.clock, {
      actor: 'operator',
      customerId: customer.id,
      action: 'password_reset_link_sent',
    });
  });
}
