// A document's registration with the IRP, the step before its PDF is drawn (decision 083): the
// printed document carries what the IRP gave it, so it is drawn only once the IRP has answered.
import { and, eq } from 'drizzle-orm';
import {
  EInvoiceRefusal,
  irnOf,
  type EInvoiceClient,
  type RegisteredDocument,
} from '../../adapters/e-invoice';
import type { AppDeps } from '../../deps';
import type { DocumentRegistration } from './document-pdf';
import { financialYearOf } from './gst';
import type { creditNotes, invoices } from './schema';

/** The IRP's "Duplicate IRN": registered already, by an earlier try whose answer was lost. */
const DUPLICATE_IRN = '2150';

type Table = typeof invoices | typeof creditNotes;

/** The fields of an INV-01 document its IRN is made of. */
interface Identity {
  SellerDtls: { Gstin: string };
  DocDtls: { Typ: string; No: string };
}

/** Registers the document, or finds what the IRP registered of it before. */
async function registered(
  client: EInvoiceClient,
  document: Identity,
  issuedAt: Date,
): Promise<RegisteredDocument> {
  try {
    return await client.generate(document);
  } catch (error) {
    if (!(error instanceof EInvoiceRefusal && error.has(DUPLICATE_IRN))) throw error;
    const irn = irnOf({
      gstin: document.SellerDtls.Gstin,
      financialYear: financialYearOf(issuedAt),
      docType: document.DocDtls.Typ,
      docNo: document.DocDtls.No,
    });
    return client.getByIrn(irn);
  }
}

const printed = (row: {
  irn: string | null;
  ackNo: string | null;
  ackDate: Date | null;
  signedQrCode: string | null;
}): DocumentRegistration | null =>
  row.irn && row.ackNo && row.ackDate && row.signedQrCode
    ? { irn: row.irn, ackNo: row.ackNo, ackDate: row.ackDate, signedQrCode: row.signedQrCode }
    : null;

/**
 * What the document's PDF prints of its registration: null where it has none (none owed, or the
 * IRP refused it). A document still being registered is registered first: an IRP that cannot be
 * reached throws, and the draw is tried again later; a refusal is kept with the IRP's reasons,
 * counted for the operator, and the document is drawn without.
 */
export async function registrationOf(
  deps: Pick<AppDeps, 'db' | 'eInvoicing' | 'metrics'>,
  table: Table,
  id: string,
): Promise<DocumentRegistration | null> {
  const [row] = await deps.db
    .select({
      status: table.eInvoiceStatus,
      document: table.eInvoiceDocument,
      issuedAt: table.issuedAt,
      irn: table.irn,
      ackNo: table.ackNo,
      ackDate: table.ackDate,
      signedQrCode: table.signedQrCode,
    })
    .from(table)
    .where(eq(table.id, id));
  if (!row || row.status !== 'Being registered') return row ? printed(row) : null;
  if (!deps.eInvoicing) {
    throw new Error(`the document ${id} awaits registration, and E_INVOICING is off`);
  }
  let answer: RegisteredDocument;
  try {
    answer = await registered(deps.eInvoicing.client, row.document as Identity, row.issuedAt);
  } catch (error) {
    if (!(error instanceof EInvoiceRefusal)) {
      deps.metrics.eInvoice('unavailable');
      throw error;
    }
    deps.metrics.eInvoice('refused');
    await deps.db
      .update(table)
      .set({ eInvoiceStatus: 'Refused', eInvoiceRefusal: error.errors.map(said).join('; ') })
      .where(and(eq(table.id, id), eq(table.eInvoiceStatus, 'Being registered')));
    return null;
  }
  deps.metrics.eInvoice('registered');
  const registration = {
    irn: answer.irn,
    ackNo: answer.ackNo,
    ackDate: answer.ackDate,
    signedQrCode: answer.signedQrCode,
  };
  await deps.db
    .update(table)
    .set({ eInvoiceStatus: 'Registered', ...registration })
    .where(and(eq(table.id, id), eq(table.eInvoiceStatus, 'Being registered')));
  return registration;
}

/** A reason as the IRP gave it: its code and its words. */
const said = ({ code, message }: { code: string; message: string }) => `${message} (${code})`;
