import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  creditNotePdfPath,
  invoicePdfPath,
  type CreditNote,
  type Invoice,
  type InvoiceStatus,
} from '@portal/contract';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { decodeCursor, encodeCursor } from '../../lib/history-cursor';
import { isUuid } from '../../lib/uuid';
import { ensureDrawn } from './draw';
import { creditNotes, invoices, type CreditNoteRow, type InvoiceRow } from './schema';

/** How long a document's link opens its PDF. */
export const DOCUMENT_LINK_TTL_SECONDS = 10 * 60;

const NOT_FOUND = 'Invoice not found';
const CREDIT_NOTE_NOT_FOUND = 'Credit note not found';

type LinkDeps = Pick<AppDeps, 'signedLinks'>;

const taxOf = (row: InvoiceRow | CreditNoteRow) => ({
  taxablePaise: row.taxablePaise,
  cgstPaise: row.cgstPaise,
  sgstPaise: row.sgstPaise,
  igstPaise: row.igstPaise,
  taxPaise: row.cgstPaise + row.sgstPaise + row.igstPaise,
  totalPaise: row.totalPaise,
});

const toCreditNote = (deps: LinkDeps, row: CreditNoteRow): CreditNote => ({
  _id: row.id,
  number: row.creditNoteNumber,
  issuedAt: row.issuedAt.toISOString(),
  ...taxOf(row),
  pdfUrl: deps.signedLinks.sign(
    creditNotePdfPath(row.id),
    row.customerId,
    DOCUMENT_LINK_TTL_SECONDS,
  ),
  pdfReady: row.drawnAt !== null,
});

const toInvoice = (deps: LinkDeps, row: InvoiceRow, notes: CreditNoteRow[]): Invoice => ({
  _id: row.id,
  number: row.invoiceNumber,
  issuedAt: row.issuedAt.toISOString(),
  orderId: row.orderId,
  status: row.status as InvoiceStatus,
  ...taxOf(row),
  pdfUrl: deps.signedLinks.sign(invoicePdfPath(row.id), row.customerId, DOCUMENT_LINK_TTL_SECONDS),
  pdfReady: row.drawnAt !== null,
  creditNotes: notes.map((note) => toCreditNote(deps, note)),
});

/** The credit notes of some invoices, oldest first, by invoice. */
async function notesOf(db: Executor, invoiceIds: string[]) {
  const byInvoice = new Map<string, CreditNoteRow[]>();
  // Stryker disable next-line ConditionalExpression: drizzle makes an empty IN list `false`, so the query finds no row either; this only spares the round trip
  if (invoiceIds.length === 0) return byInvoice;
  const rows = await db
    .select()
    .from(creditNotes)
    .where(inArray(creditNotes.invoiceId, invoiceIds))
    .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.creditNoteNumber));
  for (const row of rows) {
    byInvoice.set(row.invoiceId, [...(byInvoice.get(row.invoiceId) ?? []), row]);
  }
  return byInvoice;
}

/** Where an invoice stands in the list, to the microsecond as the database orders it. */
const positionOf = sql<string>`to_char(${invoices.issuedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * A page of the customer's invoices, newest first by (issued_at, id) on the index of the same
 * order, each with its credit notes; `nextCursor` names the page after it.
 */
export async function listInvoices(
  deps: Pick<AppDeps, 'db' | 'signedLinks'>,
  customerId: string,
  { limit, cursor }: { limit: number; cursor?: string | undefined },
) {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  const rows = await deps.db
    .select({ invoice: invoices, position: positionOf })
    .from(invoices)
    .where(
      and(
        eq(invoices.customerId, customerId),
        after &&
          sql`(${invoices.issuedAt}, ${invoices.id}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`,
      ),
    )
    .orderBy(desc(invoices.issuedAt), desc(invoices.id))
    // one row more than asked for says whether a next page exists
    .limit(limit + 1);
  const shown = rows.slice(0, limit);
  const notes = await notesOf(
    deps.db,
    shown.map((row) => row.invoice.id),
  );
  const last = shown.at(-1);
  return {
    invoices: shown.map(({ invoice }) => toInvoice(deps, invoice, notes.get(invoice.id) ?? [])),
    nextCursor:
      rows.length > limit && last
        ? encodeCursor({ createdAt: last.position, id: last.invoice.id })
        : null,
  };
}

/** One of the customer's invoices; another customer's, or no such id, is not found. */
async function ownInvoice(db: Executor, customerId: string, invoiceId: string) {
  if (!isUuid(invoiceId)) throw new AppError('NOT_FOUND', NOT_FOUND);
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.customerId, customerId)));
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return row;
}

export async function getInvoice(
  deps: Pick<AppDeps, 'db' | 'signedLinks'>,
  customerId: string,
  invoiceId: string,
): Promise<Invoice> {
  const row = await ownInvoice(deps.db, customerId, invoiceId);
  const notes = await notesOf(deps.db, [row.id]);
  return toInvoice(deps, row, notes.get(row.id) ?? []);
}

/** The stored PDF of one of the customer's invoices, and the number it is named by. */
export async function invoiceFile(db: Executor, customerId: string, invoiceId: string) {
  const row = await ownInvoice(db, customerId, invoiceId);
  ensureDrawn(row.drawnAt);
  return { fileKey: row.fileKey, number: row.invoiceNumber, missing: NOT_FOUND };
}

/** The stored PDF of one of the customer's credit notes, and the number it is named by. */
export async function creditNoteFile(db: Executor, customerId: string, creditNoteId: string) {
  if (!isUuid(creditNoteId)) throw new AppError('NOT_FOUND', CREDIT_NOTE_NOT_FOUND);
  const [row] = await db
    .select()
    .from(creditNotes)
    .where(and(eq(creditNotes.id, creditNoteId), eq(creditNotes.customerId, customerId)));
  if (!row) throw new AppError('NOT_FOUND', CREDIT_NOTE_NOT_FOUND);
  ensureDrawn(row.drawnAt);
  return { fileKey: row.fileKey, number: row.creditNoteNumber, missing: CREDIT_NOTE_NOT_FOUND };
}
