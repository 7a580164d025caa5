import { and, eq, ne } from 'drizzle-orm';
import {
  privacyMessages,
  type EmailChangeCodeRequest,
  type EmailChangeRequest,
} from '@portal/contract';
import type { AppDeps } from '../../deps';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit/record';
import { enqueueMail } from '../mail/delivery';
import { customers } from '../users/schema';
import { findCustomerById } from '../users/service';
import { checkCode, checkPassword, consumeCode, issueCode } from './codes';
import { isUniqueViolation } from '../../db/sql-state';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'queue' | 'consents' | 'config'>;

async function takenByAnother(db: Executor, customerId: string, email: string) {
  const [row] = await db
    .select(
      // Stryker disable next-line ObjectLiteral: only whether a row comes back is read; a select of no columns answers the same rows
      { id: customers.id },
    )
    .from(customers)
    .where(and(eq(customers.email, email), ne(customers.id, customerId)));
  return Boolean(row);
}

/** Step one: the password again, then a code to the new address, bound to that address. */
export async function sendEmailChangeCode(
  deps: Deps,
  customerId: string,
  input: EmailChangeCodeRequest,
) {
  const customer = await findCustomerById(deps.db, customerId);
  if (!customer) throw new AppError('UNAUTHORIZED', privacyMessages.wrongPassword);
  await checkPassword(deps, customerId, customer.passwordHash, input.password);
  if (input.newEmail === customer.email) {
    throw new AppError('BAD_REQUEST', privacyMessages.sameEmail);
  }
  if (await takenByAnother(deps.db, customerId, input.newEmail)) {
    throw new AppError('CONFLICT', privacyMessages.emailTaken);
  }
  await issueCode(deps, customerId, 'email-change', input.newEmail, input.newEmail);
}

/**
 * Step two: the code moves the account to the new address, and the old address is told (a
 * security notice, which no preference turns off). The unique index on the address decides a
 * race between customers for one address: one wins, the others get a 409.
 */
export async function confirmEmailChange(
  deps: Deps,
  customerId: string,
  input: EmailChangeRequest,
) {
  const { codeHash, newEmail } = await checkCode(deps, customerId, 'email-change', input.code);
  if (!newEmail) throw new AppError('BAD_REQUEST', privacyMessages.noCode);
  const now = deps.clock.now();
  try {
    await deps.db.transaction(async (tx) => {
      await consumeCode(tx, customerId, 'email-change', codeHash);
      const [before] = await tx
        .select({ email: customers.email })
        .from(customers)
        .where(eq(customers.id, customerId))
        .for('update');
      if (!before) throw new AppError('UNAUTHORIZED', privacyMessages.noCode);
      await tx
        .update(customers)
        .set({ email: newEmail, updatedAt: now })
        .where(eq(customers.id, customerId));
      await recordAudit(tx, deps.clock, { actor: 'customer', customerId, action: 'email_changed' });
      await enqueueMail(tx, deps, {
        template: 'privacy',
        to: before.email,
        data: { kind: 'email-changed', at: now.toISOString(), newEmail },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', privacyMessages.emailTaken);
    throw error;
  }
}
