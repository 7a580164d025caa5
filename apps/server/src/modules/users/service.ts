import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { customers, type NewCustomer } from './schema';

/** People type a mobile number, GSTIN or serial with spaces or hyphens; the stored ones have none. */
export const squashDetail = (value: string) => value.replace(/[\s-]/g, '');

/** Addresses are stored trimmed and lower-cased, so that look-ups are exact. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function findCustomerByEmail(db: Executor, email: string) {
  const [customer] = await db
    .select()
    .from(customers)
    .where(eq(customers.email, normaliseEmail(email)))
    .limit(1);
  return customer;
}

/** The customer with the address, locked until the transaction ends. */
export async function lockCustomerByEmail(tx: Executor, email: string) {
  const [customer] = await tx
    .select()
    .from(customers)
    .where(eq(customers.email, normaliseEmail(email)))
    .limit(1)
    .for('update');
  return customer;
}

/** A closed account's password hash: not an argon2 hash, so no password verifies against it. */
export const CLOSED_PASSWORD_HASH = 'closed';

/** Closed accounts keep a tombstone row until their tax records go; nothing new may join them. */
export const isClosedCustomer = (customer: { passwordHash: string }) =>
  customer.passwordHash === CLOSED_PASSWORD_HASH;

export async function findCustomerById(db: Executor, id: string) {
  const [customer] = await db.select().from(customers).where(eq(customers.id, id)).limit(1);
  return customer;
}

/** Writes a new password hash; callers end sessions and void reset links in the same transaction. */
export async function setPasswordHash(
  tx: Executor,
  clock: Clock,
  customerId: string,
  passwordHash: string,
) {
  const now = clock.now();
  await tx
    .update(customers)
    .set({ passwordHash, passwordChangedAt: now, updatedAt: now })
    .where(eq(customers.id, customerId));
}

export async function insertCustomer(db: Executor, values: NewCustomer) {
  const email = normaliseEmail(values.email);
  if (await findCustomerByEmail(db, email)) {
    throw new AppError('CONFLICT', `A customer with e-mail ${email} already exists.`);
  }
  const [customer] = await db
    .insert(customers)
    .values({ ...values, email })
    .returning();
  return customer!;
}

export function listCustomers(db: Executor) {
  return db.select().from(customers).orderBy(asc(customers.createdAt), asc(customers.email));
}
