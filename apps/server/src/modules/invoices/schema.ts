import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { orders } from '../purchases/schema';
import { customers } from '../users/schema';
import type { EInvoiceStatus } from '@portal/contract';
import type { DocumentContent } from './document-content';

/**
 * A document's PDF is drawn after its number commits (decision 070): what it says is fixed in
 * `content` at issue, and `drawnAt` is set once the PDF is stored. Documents issued before this
 * were drawn at issue and keep no content.
 */
const drawing = {
  content: jsonb().$type<DocumentContent>(),
  drawnAt: timestamp({ withTimezone: true }),
};

/**
 * A document's registration with the IRP, where GST e-invoicing asks for one (decision 083).
 * `eInvoiceStatus` is null where none is owed (e-invoicing off at issue, or a buyer with no
 * GSTIN); else Being registered until the IRP answers, then Registered with its IRN,
 * acknowledgement and signed QR code, or Refused with the IRP's reasons, or Cancelled.
 */
const registration = {
  eInvoiceStatus: text().$type<EInvoiceStatus>(),
  /** The INV-01 document to register, fixed at issue like `content`. */
  eInvoiceDocument: jsonb(),
  irn: text(),
  ackNo: text(),
  ackDate: timestamp({ withTimezone: true }),
  signedQrCode: text(),
  eInvoiceRefusal: text(),
  /** When the IRP cancelled its IRN, which it allows within 24 hours of the acknowledgement. */
  eInvoiceCancelledAt: timestamp({ withTimezone: true }),
};

/**
 * The last number used in each series: `INV/26-27` for the tax invoices of a financial year,
 * `CN/26-27` for its credit notes. The row stays locked until the issuing transaction ends, so
 * a series is gap-free: a rolled-back settlement gives its number back.
 */
export const documentCounters = pgTable('document_counters', {
  series: text().primaryKey(),
  lastNumber: integer().notNull(),
});

/** The GST tax invoice of a completed order: the amounts it states, and its PDF. */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid().primaryKey().defaultRandom(),
    invoiceNumber: text().notNull().unique(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    orderId: uuid()
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: 'cascade' }),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    /** The recipient's GSTIN and the place of supply (a GST state code) the invoice names. */
    customerGstin: text().notNull(),
    placeOfSupply: text().notNull(),
    taxablePaise: bigint({ mode: 'number' }).notNull(),
    cgstPaise: bigint({ mode: 'number' }).notNull(),
    sgstPaise: bigint({ mode: 'number' }).notNull(),
    igstPaise: bigint({ mode: 'number' }).notNull(),
    /**
     * Charges in the total outside the taxable value: none since decision 038; the Internet
     * Handling Charge of invoices issued before it.
     */
    untaxedPaise: bigint({ mode: 'number' }).notNull().default(0),
    totalPaise: bigint({ mode: 'number' }).notNull(),
    /** What its credit notes have given back so far, in paise. */
    creditedPaise: bigint({ mode: 'number' }).notNull().default(0),
    /** Issued, Partly refunded or Refunded (contract InvoiceStatus). */
    status: text().notNull().default('Issued'),
    fileKey: text().notNull(),
    ...drawing,
    ...registration,
  },
  (t) => [index('invoices_customer_issued_idx').on(t.customerId, t.issuedAt, t.id)],
);
export type InvoiceRow = typeof invoices.$inferSelect;

/** A GST credit note for money given back on an invoice (a full or partial refund). */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: uuid().primaryKey().defaultRandom(),
    creditNoteNumber: text().notNull().unique(),
    customerId: uuid()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    invoiceId: uuid()
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    /** The gateway's refund this note documents. */
    refundId: text().notNull(),
    /**
     * The invoice's credited total once this note is issued: no two notes of an invoice can
     * bring it to the same figure, so a repeated refund event cannot credit the same money twice.
     */
    creditedThroughPaise: bigint({ mode: 'number' }).notNull(),
    taxablePaise: bigint({ mode: 'number' }).notNull(),
    cgstPaise: bigint({ mode: 'number' }).notNull(),
    sgstPaise: bigint({ mode: 'number' }).notNull(),
    igstPaise: bigint({ mode: 'number' }).notNull(),
    /** Its share of the invoice's untaxed charges. */
    untaxedPaise: bigint({ mode: 'number' }).notNull().default(0),
    totalPaise: bigint({ mode: 'number' }).notNull(),
    fileKey: text().notNull(),
    ...drawing,
    ...registration,
  },
  (t) => [
    unique('credit_notes_invoice_through_unique').on(t.invoiceId, t.creditedThroughPaise),
    index('credit_notes_customer_issued_idx').on(t.customerId, t.issuedAt, t.id),
  ],
);
export type CreditNoteRow = typeof creditNotes.$inferSelect;

/** Where an order's invoice PDF (its receipt) is kept. */
export const receiptFileKey = (orderId: string) => `receipts/${orderId}.pdf`;

/** Where a credit note's PDF is kept. */
export const creditNoteFileKey = (creditNoteId: string) => `credit-notes/${creditNoteId}.pdf`;
