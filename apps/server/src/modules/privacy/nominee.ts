// The customer's nominee (DPDP Act 2023, s. 14; decision 074): the person who may exercise the
// customer's data rights on their death or incapacity. Naming, changing and removing one tells
// the person by mail, in the transaction of the change.
import { eq } from 'drizzle-orm';
import { privacyMessages, type Nominee, type NomineeRequest } from '@portal/contract';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { reserveRateLimitHit } from '../../lib/rate-limit';
import { recordAudit } from '../audit/record';
import { enqueueMail } from '../mail/delivery';
import { customers } from '../users/schema';
import { nominees } from './schema';

type NomineeDeps = Pick<AppDeps, 'db' | 'clock' | 'queue' | 'consents' | 'config'>;

const toNominee = (row: typeof nominees.$inferSelect): Nominee => ({
  name: row.name,
  email: row.email,
  relation: row.relation as Nominee['relation'],
  nominatedAt: row.nominatedAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function nomineeOf(deps: Pick<AppDeps, 'db'>, customerId: string) {
  const [row] = await deps.db.select().from(nominees).where(eq(nominees.customerId, customerId));
  return row ? toNominee(row) : null;
}

/**
 * Names the nominee, or changes who it is; the person named is told, and one replaced is told
 * they no longer are. At most five changes a day: each mails someone.
 */
export async function saveNominee(deps: NomineeDeps, customerId: string, input: NomineeRequest) {
  const { db, clock } = deps;
  return db.transaction(async (tx) => {
    // the customer's row, locked: changes of one customer's nominee take turns
    const [customer] = await tx
      .select({ email: customers.email, companyName: customers.companyName })
      .from(customers)
      .where(eq(customers.id, customerId))
      .for('update');
    if (!customer) throw new AppError('UNAUTHORIZED', 'Session expired. Please log in again.');
    if (input.email === customer.email.toLowerCase()) {
      throw new AppError('BAD_REQUEST', privacyMessages.nomineeIsYou);
    }
    const [before] = await tx.select().from(nominees).where(eq(nominees.customerId, customerId));
    const unchanged =
      before?.name === input.name &&
      before.email === input.email &&
      before.relation === input.relation;
    if (unchanged) return toNominee(before);
    await reserveRateLimitHit(tx, clock, 'nominee', customerId);
    const now = clock.now();
    const [row] = await tx
      .insert(nominees)
      .values({ customerId, ...input, nominatedAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: nominees.customerId, set: { ...input, updatedAt: now } })
      .returning();
    const { companyName } = customer;
    if (before && before.email !== input.email) {
      await enqueueMail(tx, deps, {
        template: 'privacy',
        to: before.email,
        data: {
          kind: 'nominee-removed',
          name: before.name,
          companyName,
          relation: before.relation,
        },
      });
    }
    await enqueueMail(tx, deps, {
      template: 'privacy',
      to: input.email,
      data: { kind: 'nominee-named', name: input.name, companyName, relation: input.relation },
    });
    await recordAudit(tx, clock, { actor: 'customer', customerId, action: 'nominee_named' });
    return toNominee(row!);
  });
}

/** Removes the nominee and tells them; with none named, a 404 that changes nothing. */
export async function removeNominee(deps: NomineeDeps, customerId: string) {
  const { db, clock } = deps;
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(nominees)
      .where(eq(nominees.customerId, customerId))
      .returning();
    if (!removed) throw new AppError('NOT_FOUND', privacyMessages.noNominee);
    const [customer] = await tx
      .select({ companyName: customers.companyName })
      .from(customers)
      .where(eq(customers.id, customerId));
    await enqueueMail(tx, deps, {
      template: 'privacy',
      to: removed.email,
      data: {
        kind: 'nominee-removed',
        name: removed.name,
        companyName: customer!.companyName,
        relation: removed.relation,
      },
    });
    await recordAudit(tx, clock, { actor: 'customer', customerId, action: 'nominee_removed' });
  });
}
