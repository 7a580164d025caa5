import { sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client';
import { financialYearOf } from './gst';
import { documentCounters } from './schema';

/** Tax invoices and credit notes are numbered in series of their own. */
export type Series = 'INV' | 'CN';

/** Rule 46 allows at most 16 characters: `INV/26-27/000001` is exactly that. */
export const MAX_DOCUMENT_NUMBER_LENGTH = 16;
const DIGITS = 6;

/** `26-27`: the financial year of a moment, short enough for a 16-character number. */
export function shortFinancialYear(date: Date): string {
  const year = financialYearOf(date);
  return `${year.slice(2, 4)}-${year.slice(5)}`;
}

/**
 * The next number of a series in the financial year of `issuedAt`. The counter row stays locked
 * until the transaction ends, so the series is gap-free: a rolled-back settlement gives its
 * number back, and concurrent ones wait their turn.
 */
export async function nextDocumentNumber(
  tx: Transaction,
  series: Series,
  issuedAt: Date,
): Promise<string> {
  const key = `${series}/${shortFinancialYear(issuedAt)}`;
  const [row] = await tx
    .insert(documentCounters)
    .values({ series: key, lastNumber: 1 })
    .onConflictDoUpdate({
      target: documentCounters.series,
      set: { lastNumber: sql`${documentCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: documentCounters.lastNumber });
  const serial = String(row!.lastNumber);
  // a seventh digit would break Rule 46's limit: no document is issued rather than a wrong one
  if (serial.length > DIGITS) throw new Error(`the ${key} series is exhausted`);
  return `${key}/${serial.padStart(DIGITS, '0')}`;
}
