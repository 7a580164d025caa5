import { z } from 'zod';
import { text } from './primitives';

export const invoicePaths = {
  list: '/api/invoices',
  one: '/api/invoices/:id',
  pdf: '/api/invoices/:id/pdf',
  creditNotePdf: '/api/credit-notes/:id/pdf',
} as const;
export const invoicePath = (invoiceId: string) => `/api/invoices/${encodeURIComponent(invoiceId)}`;
export const invoicePdfPath = (invoiceId: string) =>
  `/api/invoices/${encodeURIComponent(invoiceId)}/pdf`;
export const creditNotePdfPath = (creditNoteId: string) =>
  `/api/credit-notes/${encodeURIComponent(creditNoteId)}/pdf`;

export const INVOICE_PAGE_SIZE = 20;
export const INVOICE_MAX_LIMIT = 100;
export const INVOICE_CURSOR_MAX_LENGTH = 200;
export const INVOICE_CURSOR_MESSAGE = 'must be the nextCursor of an earlier page';

/** An invoice is Issued, then Partly refunded or Refunded as credit notes give money back. */
export const InvoiceStatusSchema = z.enum(['Issued', 'Partly refunded', 'Refunded']);
export type InvoiceStatus = z.infer<typeof InvoiceStatusSchema>;

/**
 * A document's registration with the GST Invoice Registration Portal (IRP): Being registered
 * until the IRP answers, then Registered, or Refused with its reasons; Cancelled once its IRN is
 * cancelled, which the IRP allows within 24 hours.
 */
export const EInvoiceStatusSchema = z.enum([
  'Being registered',
  'Registered',
  'Refused',
  'Cancelled',
]);
export type EInvoiceStatus = z.infer<typeof EInvoiceStatusSchema>;

/** What a registered document carries: its IRN and the IRP's acknowledgement. */
export const EInvoiceSchema = z.object({
  status: EInvoiceStatusSchema,
  /** The Invoice Reference Number, 64 hexadecimal characters; null until registered. */
  irn: z.string().nullable(),
  ackNo: z.string().nullable(),
  ackDate: z.string().nullable(),
  /** The IRP's reasons, in its words, when it refused the document; else null. */
  refusal: z.string().nullable(),
});
export type EInvoice = z.infer<typeof EInvoiceSchema>;

/** The amounts a document states, in paise; `taxPaise` is CGST + SGST + IGST. */
const DocumentAmountsSchema = z.object({
  taxablePaise: z.number().int(),
  cgstPaise: z.number().int(),
  sgstPaise: z.number().int(),
  igstPaise: z.number().int(),
  taxPaise: z.number().int(),
  totalPaise: z.number().int(),
});

/** A GST credit note: money given back on the invoice it is listed under. */
export const CreditNoteSchema = DocumentAmountsSchema.extend({
  _id: z.string(),
  number: z.string(),
  issuedAt: z.string(),
  /** A short-lived signed link that opens the PDF in a new tab. */
  pdfUrl: z.string(),
  /** False for the moment after issue while the PDF is drawn: the link answers 409 till then. */
  pdfReady: z.boolean(),
  /** Its registration with the IRP; null where e-invoicing does not apply to it. */
  eInvoice: EInvoiceSchema.nullable(),
});
export type CreditNote = z.infer<typeof CreditNoteSchema>;

/** A GST tax invoice, with the credit notes issued against it, oldest first. */
export const InvoiceSchema = DocumentAmountsSchema.extend({
  _id: z.string(),
  number: z.string(),
  issuedAt: z.string(),
  orderId: z.string(),
  status: InvoiceStatusSchema,
  pdfUrl: z.string(),
  /** False for the moment after issue while the PDF is drawn: the link answers 409 till then. */
  pdfReady: z.boolean(),
  /** Its registration with the IRP; null where e-invoicing does not apply to it. */
  eInvoice: EInvoiceSchema.nullable(),
  creditNotes: z.array(CreditNoteSchema),
});
export type Invoice = z.infer<typeof InvoiceSchema>;

const LIMIT_MESSAGE = `must be a whole number from 1 to ${INVOICE_MAX_LIMIT}`;

/** `GET /api/invoices` query: the first page without `cursor`, each next with `nextCursor`. */
export const InvoiceListQuerySchema = z.object({
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(INVOICE_MAX_LIMIT, LIMIT_MESSAGE)
    .default(INVOICE_PAGE_SIZE),
  cursor: text()
    .min(1, INVOICE_CURSOR_MESSAGE)
    .max(INVOICE_CURSOR_MAX_LENGTH, INVOICE_CURSOR_MESSAGE)
    .optional(),
});
export type InvoiceListQuery = z.input<typeof InvoiceListQuerySchema>;

/** `GET /api/invoices`: a page of the customer's invoices, newest first. */
export const InvoiceListResponseSchema = z.object({
  success: z.literal(true),
  invoices: z.array(InvoiceSchema),
  nextCursor: z.string().nullable(),
});
export type InvoiceListResponse = z.infer<typeof InvoiceListResponseSchema>;

/** `GET /api/invoices/:id`: one of the customer's invoices, with fresh PDF links. */
export const InvoiceResponseSchema = z.object({
  success: z.literal(true),
  invoice: InvoiceSchema,
});
export type InvoiceResponse = z.infer<typeof InvoiceResponseSchema>;
