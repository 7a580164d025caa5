import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import yazl from 'yazl';
import {
  customerDate,
  customerDateTime,
  exportDownloadPath,
  exportFileName,
  financialYearRange,
  isoDateDay,
  type CsvExportKind,
  type ExportKind,
  type ExportLinkRequest,
  type ExportRange,
} from '@portal/contract';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../audit/record';
import { documentPdf, invoicesInRange, type TaxDocument } from '../invoices/reads';
import { customers } from '../users/schema';
import { CSV_BOM, csvRow, type Cell } from './csv';
import { activityBatches, consentBatches, orderBatches, type ExportWindow } from './reads';
import { tallyVouchersXml } from './tally';
import { DAY_MS } from '../../lib/clock';

/** Long enough to start the download the page asks for; the stream itself may run longer. */
export const EXPORT_LINK_TTL_SECONDS = 60;

// India keeps one offset all year: midnight there is 18:30 UTC the day before
const INDIA_OFFSET_MS = 330 * 60_000;

/** The range's days in India, as instants: its first midnight up to the midnight after `to`. */
export function windowOf(customerId: string, range: ExportRange): ExportWindow {
  const start = isoDateDay(range.from)! * DAY_MS - INDIA_OFFSET_MS;
  const end = (isoDateDay(range.to)! + 1) * DAY_MS - INDIA_OFFSET_MS;
  return { customerId, from: new Date(start), to: new Date(end) };
}

const rangeOf = (request: ExportLinkRequest): ExportRange =>
  request.kind === 'invoice-pdfs' ? financialYearRange(request.financialYear)! : request.range;

/** A signed link to the download, bound to the customer, the kind and the range. */
export function exportLink(deps: AppDeps, customerId: string, request: ExportLinkRequest) {
  const range = rangeOf(request);
  return {
    url: deps.signedLinks.sign(
      exportDownloadPath(request.kind, range),
      customerId,
      EXPORT_LINK_TTL_SECONDS,
    ),
    fileName: exportFileName(request.kind, range),
  };
}

const when = (instant: Date | null) => (instant ? customerDateTime(instant) : null);
const day = (instant: Date | null) => (instant ? customerDate(instant) : null);

/** A table of rows read in batches: a header, then each batch as one chunk of CSV. */
async function* csv<Row>(
  header: readonly string[],
  batches: AsyncIterable<Row[]>,
  cells: (row: Row) => Cell[],
): AsyncGenerator<string> {
  yield CSV_BOM + csvRow(header);
  for await (const batch of batches) yield batch.map((row) => csvRow(cells(row))).join('');
}

const ORDER_HEADER = [
  'Date',
  'Order ID',
  'Plan',
  'Status',
  'Base (₹)',
  'GST (₹)',
  'Handling (₹)',
  'Total (₹)',
  'Paid on',
];
const ACTIVITY_HEADER = ['Date', 'Type', 'Title', 'Description', 'Status'];
const CONSENT_HEADER = [
  'Created',
  'Consent ID',
  'Partner',
  'Status',
  'Purpose',
  'Permissions',
  'Accounts',
  'Transactions from',
  'Transactions to',
  'Expires',
  'Revoked',
];
const INVOICE_HEADER = [
  'Document',
  'Number',
  'Date',
  'Invoice number',
  'Invoice date',
  'Order ID',
  'GSTIN',
  'Place of supply',
  'Taxable value (₹)',
  'CGST (₹)',
  'SGST (₹)',
  'IGST (₹)',
  'Other charges (₹)',
  'Total (₹)',
];

const invoiceCells = (document: TaxDocument): Cell[] => [
  document.kind === 'invoice' ? 'Tax invoice' : 'Credit note',
  document.number,
  day(document.issuedAt),
  document.invoiceNumber,
  day(document.invoiceDate),
  document.orderId,
  document.customerGstin,
  document.placeOfSupply,
  { paise: document.taxablePaise },
  { paise: document.cgstPaise },
  { paise: document.sgstPaise },
  { paise: document.igstPaise },
  { paise: document.untaxedPaise },
  { paise: document.totalPaise },
];

/** A live consent past its expiry is Expired, as every list shows it, before the sweep stores it. */
const consentStatus = (status: string, expiresAt: Date | null, now: Date) =>
  (status === 'Pending' || status === 'Approved') && expiresAt && expiresAt <= now
    ? 'Expired'
    : status;

function csvOf(deps: AppDeps, kind: CsvExportKind, window: ExportWindow): AsyncGenerator<string> {
  const { db } = deps;
  switch (kind) {
    case 'orders':
      return csv(ORDER_HEADER, orderBatches(db, window), (row) => [
        when(row.createdAt),
        row.id,
        row.planName,
        row.status,
        { paise: row.basePaise },
        { paise: row.gstPaise },
        { paise: row.handlingPaise },
        { paise: row.totalPaise },
        when(row.paidAt),
      ]);
    case 'activity':
      return csv(ACTIVITY_HEADER, activityBatches(db, window), (row) => [
        when(row.createdAt),
        row.type,
        row.title,
        row.description,
        row.status,
      ]);
    case 'consents': {
      const now = deps.clock.now();
      return csv(CONSENT_HEADER, consentBatches(db, window), (row) => [
        when(row.createdAt),
        row.consentId,
        row.partner,
        consentStatus(row.status, row.expiresAt, now),
        row.purpose,
        row.permissions.join('; '),
        row.accounts.join('; '),
        day(row.transactionFrom),
        day(row.transactionTo),
        when(row.expiresAt),
        when(row.revokedAt),
      ]);
    }
    case 'invoices':
      // a customer's invoices in a range of at most a year are a few dozen: one read holds them
      return csv(
        INVOICE_HEADER,
        (async function* () {
          yield await invoicesInRange(db, window.customerId, window.from, window.to);
        })(),
        invoiceCells,
      );
  }
}

async function tallyXml(deps: AppDeps, window: ExportWindow): Promise<string> {
  const [customer] = await deps.db
    .select({ companyName: customers.companyName })
    .from(customers)
    .where(eq(customers.id, window.customerId));
  if (!customer) throw new AppError('NOT_FOUND', 'This account no longer exists.');
  const { config } = deps;
  return tallyVouchersXml(
    {
      company: customer.companyName,
      supplier: { name: config.INVOICE_SUPPLIER_NAME, gstin: config.INVOICE_SUPPLIER_GSTIN },
    },
    await invoicesInRange(deps.db, window.customerId, window.from, window.to),
  );
}

/** INV/26-27/000001 → INV-26-27-000001.pdf: a slash would make a folder in the archive. */
export const pdfEntryName = (document: Pick<TaxDocument, 'kind' | 'number'>) =>
  `${document.kind === 'invoice' ? 'invoices' : 'credit-notes'}/${document.number.replaceAll('/', '-')}.pdf`;

export const DOCUMENTS_BEING_PREPARED =
  'Some of these documents are being prepared. Please try again in a moment.';

/**
 * Adds each document's PDF to an archive, read from the store only when the archive reaches it,
 * so that memory holds one document at a time. A document just issued, whose PDF is not drawn
 * yet, stops the archive before it begins: it is asked for again in a moment.
 */
export function addDocumentPdfs(
  zip: yazl.ZipFile,
  files: AppDeps['files'],
  documents: readonly TaxDocument[],
) {
  if (documents.some((document) => !document.drawn)) {
    throw new AppError('CONFLICT', DOCUMENTS_BEING_PREPARED, 'being prepared', 5);
  }
  for (const document of documents) {
    // PDFs are compressed already: stored as they are
    zip.addReadStreamLazy(
      pdfEntryName(document),
      { mtime: document.issuedAt, compress: false },
      (done) => {
        const open = async () => {
          const pdf = await documentPdf(files, document);
          if (!pdf) throw new Error(`the PDF of ${document.number} is missing from the store`);
          return Readable.from([pdf]);
        };
        open().then(
          (stream) => done(null, stream),
          // Stryker disable next-line ArrayDeclaration: yazl reads no stream that comes with an error (it emits the error and stops), so its contents never matter
          (error: Error) => done(error, Readable.from([])),
        );
      },
    );
  }
}

/**
 * Ends an archive and answers its output. A failure while it is written (a PDF missing from the
 * store, a read that fails) destroys the output with that error: the download stops and the
 * request's log says why, where without a listener the archive would hang and its error would
 * escape the request.
 */
export function endedArchive(zip: yazl.ZipFile): Readable {
  const output = zip.outputStream as Readable;
  zip.on('error', (error: Error) => output.destroy(error));
  // the failure may come before the response listens (while the download is audited): the
  // destroyed stream keeps it for the response, which then stops, rather than the process
  output.on('error', () => undefined);
  zip.end();
  return output;
}

/** The year's invoices and credit notes as a ZIP that streams. */
async function pdfArchive(deps: AppDeps, window: ExportWindow): Promise<Readable> {
  const documents = await invoicesInRange(deps.db, window.customerId, window.from, window.to);
  const zip = new yazl.ZipFile();
  addDocumentPdfs(zip, deps.files, documents);
  return endedArchive(zip);
}

export interface ExportFile {
  contentType: string;
  fileName: string;
  body: Readable | string;
}

async function fileOf(
  deps: AppDeps,
  customerId: string,
  kind: ExportKind,
  range: ExportRange,
): Promise<ExportFile> {
  const window = windowOf(customerId, range);
  const fileName = exportFileName(kind, range);
  if (kind === 'tally') {
    return {
      contentType: 'application/xml; charset=utf-8',
      fileName,
      body: await tallyXml(deps, window),
    };
  }
  if (kind === 'invoice-pdfs') {
    return { contentType: 'application/zip', fileName, body: await pdfArchive(deps, window) };
  }
  return {
    contentType: 'text/csv; charset=utf-8',
    fileName,
    body: Readable.from(csvOf(deps, kind, window)),
  };
}

/**
 * The file of a signed link, read for its customer only, and its line in the audit log. The
 * file is made before the line is written; it is read only once the line is there.
 */
export async function exportFile(
  deps: AppDeps,
  customerId: string,
  kind: ExportKind,
  range: ExportRange,
): Promise<ExportFile> {
  const file = await fileOf(deps, customerId, kind, range);
  await recordAudit(deps.db, deps.clock, {
    actor: 'customer',
    customerId,
    action: 'export_downloaded',
    details: { kind, from: range.from, to: range.to },
  });
  return file;
}
