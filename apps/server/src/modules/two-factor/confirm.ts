import { eq } from 'drizzle-orm';
import { twoFactorMessages } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { verifyPassword } from '../../lib/password';
import { reserveRateLimitHit } from '../../lib/rate-limit';
import { recordAudit, type AuditAction } from '../audit/record';
import { customers } from '../users/schema';

export type ConfirmDeps = Pick<AppDeps, 'db' | 'clock'>;

/** A wrong guess: counted against the limit, where other refusals are not. */
export class WrongCode extends AppError {
  constructor() {
    super('BAD_REQUEST', twoFactorMessages.wrongCode);
  }
}

export interface Confirmer {
  email: string;
  companyName: string;
}

/**
 * A change to how the customer signs in, confirmed with the password: counted against the
 * customer's limit of wrong entries before it is hashed (the same limit as wrong codes). A wrong
 * password or code is recorded in the audit log as a refused `action`; a refusal that is not a
 * wrong guess (nothing to turn on or off) gives the count back.
 */
export async function checkedPassword<T>(
  deps: ConfirmDeps,
  customerId: string,
  password: string,
  action: AuditAction,
  check: (customer: Confirmer) => Promise<T>,
): Promise<T> {
  const refused = (reason: 'wrong_password' | 'wrong_code') =>
    recordAudit(deps.db, deps.clock, {
      actor: 'customer',
      customerId,
      action,
      outcome: 'failure',
      details: { reason },
    });
  const attempt = await reserveRateLimitHit(
    deps.db,
    deps.clock,
    'code',
    `two-factor:${customerId}`,
  );
  const [customer] = await deps.db
    .select({
      email: customers.email,
      companyName: customers.companyName,
      passwordHash: customers.passwordHash,
    })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!customer || !(await verifyPassword(customer.passwordHash, password))) {
    await refused('wrong_password');
    throw new AppError('BAD_REQUEST', twoFactorMessages.wrongPassword);
  }
  const result = await check(customer).catch(async (error: unknown) => {
    if (error instanceof WrongCode) await refused('wrong_code');
    else await attempt.giveBack();
    throw error;
  });
  await attempt.giveBack();
  return result;
}
