import { and, asc, eq } from 'drizzle-orm';
import {
  INVOICE_PAGE_SIZE,
  creditNotePdfPath,
  invoicePdfPath,
  type CreditNote,
  type EInvoice,
  type Invoice,
  type InvoiceStatus,
} from '@portal/contract';
import type { Executor } from '../../db/client';
import {
  jsonInstant,
  microsecondInstant,
  runSessionRead,
  sessionReadText,
  type SessionColumns,
  type UnrevokedSession,
  type SessionAuth,
} from '../../db/session-read';
import { keysetAnswer, keysetPage, keysetPages } from '../../db/keyset-pages';
import { costedForAnyValue } from '../../db/statements';
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

/** What a document's answer shows of its row; its date as the answer writes it (ISO, UTC). */
interface DocumentView {
  id: string;
  customerId: string;
  number: string;
  issuedAt: string;
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  totalPaise: number;
  /** Whether its PDF is drawn and stored yet (decision 070). */
  drawn: boolean;
  eInvoice: EInvoice | null;
}

interface InvoiceView extends DocumentView {
  orderId: string;
  status: string;
  /** Oldest first. */
  creditNotes: DocumentView[];
}

const taxOf = (view: DocumentView) => ({
  taxablePaise: view.taxablePaise,
  cgstPaise: view.cgstPaise,
  sgstPaise: view.sgstPaise,
  igstPaise: view.igstPaise,
  taxPaise: view.cgstPaise + view.sgstPaise + view.igstPaise,
  totalPaise: view.totalPaise,
});

const toCreditNote = (deps: LinkDeps, view: DocumentView): CreditNote => ({
  _id: view.id,
  number: view.number,
  issuedAt: view.issuedAt,
  ...taxOf(view),
  pdfUrl: deps.signedLinks.sign(
    creditNotePdfPath(view.id),
    view.customerId,
    DOCUMENT_LINK_TTL_SECONDS,
  ),
  pdfReady: view.drawn,
  eInvoice: view.eInvoice,
});

const toInvoice = (deps: LinkDeps, view: InvoiceView): Invoice => ({
  _id: view.id,
  number: view.number,
  issuedAt: view.issuedAt,
  orderId: view.orderId,
  status: view.status as InvoiceStatus,
  ...taxOf(view),
  pdfUrl: deps.signedLinks.sign(
    invoicePdfPath(view.id),
    view.customerId,
    DOCUMENT_LINK_TTL_SECONDS,
  ),
  pdfReady: view.drawn,
  eInvoice: view.eInvoice,
  creditNotes: view.creditNotes.map((note) => toCreditNote(deps, note)),
});

const documentViewOf = (row: InvoiceRow | CreditNoteRow, number: string): DocumentView => ({
  id: row.id,
  customerId: row.customerId,
  number,
  issuedAt: row.issuedAt.toISOString(),
  taxablePaise: row.taxablePaise,
  cgstPaise: row.cgstPaise,
  sgstPaise: row.sgstPaise,
  igstPaise: row.igstPaise,
  totalPaise: row.totalPaise,
  drawn: row.drawnAt !== null,
  eInvoice: row.eInvoiceStatus
    ? {
        status: row.eInvoiceStatus,
        irn: row.irn,
        ackNo: row.ackNo,
        ackDate: row.ackDate?.toISOString() ?? null,
        refusal: row.eInvoiceRefusal,
      }
    : null,
});

/** The columns of a document's view, as the JSON object the page's statement builds. */
const documentViewJson = (alias: string, number: string) =>
  `'id', ${alias}.id, 'customerId', ${alias}.customer_id, 'number', ${alias}.${number},
      'issuedAt', ${jsonInstant(`${alias}.issued_at`)}, 'taxablePaise', ${alias}.taxable_paise,
      'cgstPaise', ${alias}.cgst_paise, 'sgstPaise', ${alias}.sgst_paise,
      'igstPaise', ${alias}.igst_paise, 'totalPaise', ${alias}.total_paise,
      'drawn', ${alias}.drawn_at IS NOT NULL,
      'eInvoice', CASE WHEN ${alias}.e_invoice_status IS NOT NULL THEN json_build_object(
        'status', ${alias}.e_invoice_status, 'irn', ${alias}.irn, 'ackNo', ${alias}.ack_no,
        'ackDate', ${jsonInstant(`${alias}.ack_date`)}, 'refusal', ${alias}.e_invoice_refusal) END`;

/**
 * The text of one page of a customer's invoices, newest first by (issued_at, id), each with its
 * credit notes oldest first, and the request's session: no row at all when it is revoked. The
 * page is picked on the index of the customer's invoices in that order first, and only its rows
 * are joined to their notes (on the notes' (invoice_id, ...) unique index); the whole page is one
 * JSON value, as in the orders history (docs/decisions/049-orders-history-as-one-json-value.md).
 * `after` reads the page after a position; `size` writes the number of rows into the text.
 * $1 the session, $2 the customer, $3 and $4 the position, then the number of rows.
 */
function invoicePageText(after: boolean, size: number | undefined): string {
  const bound = after ? 'AND (issued_at, id) < ($3::timestamptz, $4::uuid)' : '';
  const rows = size ?? `$${after ? 5 : 3}::int`;
  return sessionReadText(`(SELECT coalesce(json_agg(json_build_object(
      ${documentViewJson('i', 'invoice_number')},
      'orderId', i.order_id, 'status', i.status, 'position', ${microsecondInstant('i.issued_at')},
      'creditNotes', (SELECT coalesce(json_agg(json_build_object(
          ${documentViewJson('n', 'credit_note_number')}
        ) ORDER BY n.issued_at, n.credit_note_number), '[]')
        FROM credit_notes n WHERE n.invoice_id = i.id)
    ) ORDER BY i.issued_at DESC, i.id DESC), '[]')
    FROM (SELECT id, customer_id, invoice_number, issued_at, order_id, status, taxable_paise,
        cgst_paise, sgst_paise, igst_paise, total_paise, drawn_at, e_invoice_status, irn, ack_no,
        ack_date, e_invoice_refusal FROM invoices
      WHERE customer_id = ${costedForAnyValue('$2::uuid')} ${bound}
      ORDER BY issued_at DESC, id DESC LIMIT ${rows}) i) AS invoices`);
}

/** The list's pages; the web app's reads its size, and one more to see whether a next exists. */
const INVOICE_PAGES = keysetPages('invoices_page', INVOICE_PAGE_SIZE + 1, invoicePageText);

/** An invoice of the page as its statement writes it: the view `toInvoice` takes, and more. */
interface PageEntry extends InvoiceView {
  /** The invoice's issued_at to the microsecond: where the next page starts. */
  position: string;
}

interface InvoicePageRow extends SessionColumns {
  invoices: PageEntry[];
}

/**
 * A page of the customer's invoices, newest first by (issued_at, id), each with its credit
 * notes; `nextCursor` names the page after it, and the session read beside it is for the route
 * to confirm (undefined when it is revoked).
 */
export async function listInvoices(
  deps: Pick<AppDeps, 'db' | 'signedLinks'>,
  auth: SessionAuth,
  { limit, cursor }: { limit: number; cursor?: string | undefined },
): Promise<{
  invoices: Invoice[];
  nextCursor: string | null;
  session: UnrevokedSession | undefined;
}> {
  const position = cursor === undefined ? undefined : decodeCursor(cursor);
  // one row more than asked for says whether a next page exists, in the same round trip
  const { statement, more } = keysetPage(
    INVOICE_PAGES,
    limit + 1,
    position && [position.createdAt, position.id],
  );
  const { row, session } = await runSessionRead<InvoicePageRow>(deps.db, auth, statement, more);
  const { shown, nextCursor } = keysetAnswer(row?.invoices ?? [], limit, (last) =>
    encodeCursor({ createdAt: last.position, id: last.id }),
  );
  return { invoices: shown.map((entry) => toInvoice(deps, entry)), nextCursor, session };
}

/** The credit notes of an invoice, oldest first. */
const creditNoteRowsOf = (db: Executor, invoiceId: string) =>
  db
    .select()
    .from(creditNotes)
    .where(eq(creditNotes.invoiceId, invoiceId))
    .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.creditNoteNumber));

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
  const notes = await creditNoteRowsOf(deps.db, row.id);
  return toInvoice(deps, {
    ...documentViewOf(row, row.invoiceNumber),
    orderId: row.orderId,
    status: row.status,
    creditNotes: notes.map((note) => documentViewOf(note, note.creditNoteNumber)),
  });
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
