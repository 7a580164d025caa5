import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What the sandbox IRP registered: one row per IRN, as the real IRP keeps one per supplier,
 * financial year, document type and number. The acknowledgement number is unique, as the
 * IRP's is.
 */
export const sandboxIrpDocuments = pgTable('sandbox_irp_documents', {
  irn: text().primaryKey(),
  supplierGstin: text().notNull(),
  financialYear: text().notNull(),
  docType: text().notNull(),
  docNo: text().notNull(),
  /** The document's date as INV-01 writes it, dd/mm/yyyy. */
  docDate: text().notNull(),
  ackNo: text().notNull().unique(),
  ackDate: timestamp({ withTimezone: true }).notNull(),
  /** ACT while registered, CNL once cancelled, the IRP's own words. */
  status: text().notNull().default('ACT'),
  /** The INV-01 document as it was registered. */
  document: jsonb().notNull(),
  signedInvoice: text().notNull(),
  signedQrCode: text().notNull(),
  cancelledAt: timestamp({ withTimezone: true }),
  cancelReason: text(),
  cancelRemark: text(),
});
export type SandboxIrpDocumentRow = typeof sandboxIrpDocuments.$inferSelect;
