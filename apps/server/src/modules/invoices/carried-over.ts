import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { stateCodeOf } from './gst';

/** The tax of a row, split as splitTax splits it: the odd paisa to CGST. */
const resplit = (state: string, placeOfSupply: SQL, tax: SQL) => sql`
  cgst_paise = CASE WHEN ${placeOfSupply} = ${state} THEN round((${tax}) / 2.0) ELSE 0 END,
  sgst_paise = CASE WHEN ${placeOfSupply} = ${state} THEN (${tax}) - round((${tax}) / 2.0) ELSE 0 END,
  igst_paise = CASE WHEN ${placeOfSupply} = ${state} THEN 0 ELSE ${tax} END`;

/**
 * Splits the GST of the invoices carried over from the receipts (migration 0005, the only ones
 * with a charge outside the taxable value) by the configured supplier GSTIN's State, as new
 * invoices are: the migration could not read the configuration and took State 29. Their credit
 * notes follow. Only rows split the other way change, so it runs after the migrations at every
 * start and does nothing once done. Their PDFs stay as they were issued.
 */
export async function splitCarriedOverByState(db: Executor, supplierGstin: string) {
  const state = stateCodeOf(supplierGstin);
  await db.execute(sql`
    UPDATE invoices SET ${resplit(state, sql`place_of_supply`, sql`cgst_paise + sgst_paise + igst_paise`)}
    WHERE untaxed_paise > 0 AND (place_of_supply = ${state}) = (igst_paise > 0)`);
  await db.execute(sql`
    UPDATE credit_notes note SET ${resplit(
      state,
      sql`invoice.place_of_supply`,
      sql`note.cgst_paise + note.sgst_paise + note.igst_paise`,
    )}
    FROM invoices invoice
    WHERE note.invoice_id = invoice.id AND invoice.untaxed_paise > 0
      AND (invoice.place_of_supply = ${state}) = (note.igst_paise > 0)`);
}
