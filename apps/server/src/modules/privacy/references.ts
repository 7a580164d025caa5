import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { AppError } from '../../lib/errors';
import { customers } from '../users/schema';

/** Crockford's base32 without the letters read as digits: a reference read out on the phone. */
const REFERENCE_LETTERS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A request's reference, such as GRV-7Q2K9M4T: its kind, then eight letters. */
export function newReference(kind: 'GRV' | 'COR') {
  const bytes = randomBytes(8);
  return `${kind}-${[...bytes].map((byte) => REFERENCE_LETTERS[byte % 32]).join('')}`;
}

/**
 * Why deciding a request by its reference changed nothing: `known` when the reference exists, so
 * it was decided already (409); else there is no such request (404).
 */
export const undecidable = (
  known: boolean,
  reference: string,
  words: { decided: string; kind: string },
) =>
  new AppError(
    known ? 'CONFLICT' : 'NOT_FOUND',
    known ? `${reference} is ${words.decided} already` : `no ${words.kind} ${reference}`,
  );

/** Where a request's customer is mailed its outcome. */
export async function emailOf(tx: Executor, customerId: string) {
  const [customer] = await tx
    .select({ email: customers.email })
    .from(customers)
    .where(eq(customers.id, customerId));
  return customer!.email;
}
