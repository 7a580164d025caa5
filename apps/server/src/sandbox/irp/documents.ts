import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import type { Inv01 } from './inv-01';
import { financialYear } from './rules';
import { sandboxIrpDocuments, type SandboxIrpDocumentRow } from './schema';

/** The IRP's acknowledgement number: fifteen digits, the first not 0. */
export const newAckNo = () =>
  `${randomInt(1, 10)}${String(randomInt(0, 10 ** 14)).padStart(14, '0')}`;

export async function findIrpDocument(
  db: Executor,
  irn: string,
): Promise<SandboxIrpDocumentRow | undefined> {
  const [row] = await db.select().from(sandboxIrpDocuments).where(eq(sandboxIrpDocuments.irn, irn));
  return row;
}

/**
 * Records a registration; undefined when the IRN is registered already, by an earlier request
 * or by one running at the same time, so that of concurrent registrations exactly one wins.
 */
export async function insertIrpDocument(
  db: Executor,
  entry: {
    irn: string;
    document: Inv01;
    day: Date;
    ackNo: string;
    ackDate: Date;
    signedInvoice: string;
    signedQrCode: string;
  },
): Promise<SandboxIrpDocumentRow | undefined> {
  const { document } = entry;
  const [row] = await db
    .insert(sandboxIrpDocuments)
    .values({
      irn: entry.irn,
      supplierGstin: document.SellerDtls.Gstin,
      financialYear: financialYear(entry.day),
      docType: document.DocDtls.Typ,
      docNo: document.DocDtls.No,
      docDate: document.DocDtls.Dt,
      ackNo: entry.ackNo,
      ackDate: entry.ackDate,
      document,
      signedInvoice: entry.signedInvoice,
      signedQrCode: entry.signedQrCode,
    })
    .onConflictDoNothing({ target: sandboxIrpDocuments.irn })
    .returning();
  return row;
}

/** Cancels an active document; undefined when it is no longer active (cancelled meanwhile). */
export async function cancelIrpDocument(
  db: Executor,
  irn: string,
  cancel: { at: Date; reason: string; remark: string },
): Promise<SandboxIrpDocumentRow | undefined> {
  const [row] = await db
    .update(sandboxIrpDocuments)
    .set({
      status: 'CNL',
      cancelledAt: cancel.at,
      cancelReason: cancel.reason,
      cancelRemark: cancel.remark,
    })
    .where(and(eq(sandboxIrpDocuments.irn, irn), eq(sandboxIrpDocuments.status, 'ACT')))
    .returning();
  return row;
}
