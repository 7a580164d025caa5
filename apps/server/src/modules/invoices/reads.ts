import { and, eq, gte, lt } from 'drizzle-orm';
import type { FileStore } from '../../adapters/file-store';
import type { Executor } from '../../db/client';
import type { DocumentAmounts } from './amounts';
import { creditNotes, invoices } from './schema';

/** A tax invoice or a credit note, as the books take it in. */
export interface TaxDocument extends DocumentAmounts {
  kind: 'invoice' | 'credit-note';
  id: string;
  number: string;
  issuedAt: Date;
  orderId: string;
  /** The invoice itself, or the one a credit note refers to. */
  invoiceNumber: string;
  invoiceDate: Date;
  customerGstin: string;
  /** The GST state code of the place of supply. */
  placeOfSupply: string;
  /** Where its PDF is kept: read it with `documentPdf`. */
  fileKey: string;
  /** Whether its PDF is drawn and stored yet (decision 070). */
  drawn: boolean;
}

const amountsOf = (row: DocumentAmounts): DocumentAmounts => ({
  taxablePaise: row.taxablePaise,
  cgstPaise: row.cgstPaise,
  sgstPaise: row.sgstPaise,
  igstPaise: row.igstPaise,
  untaxedPaise: row.untaxedPaise,
  totalPaise: row.totalPaise,
});

/**
 * A customer's tax invoices and credit notes issued from `from` up to (not including) `to`,
 * in the order they were issued, each with its amounts and tax split.
 */
export async function invoicesInRange(
  db: Executor,
  customerId: string,
  from: Date,
  to: Date,
): Promise<TaxDocument[]> {
  const [issued, credited] = await Promise.all([
    db
      .select()
      .from(invoices)
      .where(
        and(
          eq(invoices.customerId, customerId),
          gte(invoices.issuedAt, from),
          lt(invoices.issuedAt, to),
        ),
      ),
    db
      .select({ note: creditNotes, invoice: invoices })
      .from(creditNotes)
      .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
      .where(
        and(
          eq(creditNotes.customerId, customerId),
          gte(creditNotes.issuedAt, from),
          lt(creditNotes.issuedAt, to),
        ),
      ),
  ]);
  const documents: TaxDocument[] = [
    ...issued.map((row) => ({
      kind: 'invoice' as const,
      id: row.id,
      number: row.invoiceNumber,
      issuedAt: row.issuedAt,
      orderId: row.orderId,
      invoiceNumber: row.invoiceNumber,
      invoiceDate: row.issuedAt,
      customerGstin: row.customerGstin,
      placeOfSupply: row.placeOfSupply,
      fileKey: row.fileKey,
      drawn: row.drawnAt !== null,
      ...amountsOf(row),
    })),
    ...credited.map(({ note, invoice }) => ({
      kind: 'credit-note' as const,
      id: note.id,
      number: note.creditNoteNumber,
      issuedAt: note.issuedAt,
      orderId: invoice.orderId,
      invoiceNumber: invoice.invoiceNumber,
      invoiceDate: invoice.issuedAt,
      customerGstin: invoice.customerGstin,
      placeOfSupply: invoice.placeOfSupply,
      fileKey: note.fileKey,
      drawn: note.drawnAt !== null,
      ...amountsOf(note),
    })),
  ];
  return documents.sort(
    (a, b) => a.issuedAt.getTime() - b.issuedAt.getTime() || a.number.localeCompare(b.number),
  );
}

/** A document's PDF bytes, or null when its file is missing from the store. */
export const documentPdf = (files: FileStore, document: Pick<TaxDocument, 'fileKey'>) =>
  files.read(document.fileKey);
