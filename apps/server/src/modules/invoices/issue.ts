import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client';
import type { AppDeps } from '../../deps';
import { enqueueMail } from '../mail/delivery';
import type { OrderRow } from '../orders/schema';
import { creditAmounts, invoiceAmounts } from './amounts';
import { creditNoteContent, invoiceContent, isIntraState, type InvoiceData } from './content';
import { nextDocumentNumber } from './numbering';
import { recipientOf, supplierOf } from './recipient';
import { issuedDocumentPdf } from './signing';
import {
  creditNoteFileKey,
  creditNotes,
  invoices,
  receiptFileKey,
  type CreditNoteRow,
} from './schema';

type IssueDeps = Pick<AppDeps, 'files' | 'config'>;

export interface InvoiceInput {
  order: OrderRow;
  paymentId: string | null;
  issuedAt: Date;
  plan: InvoiceData['plan'];
  period: InvoiceData['period'];
}

/**
 * Numbers, renders and stores the tax invoice of an order as it completes, in its settling
 * transaction (an order completes once; its invoice is unique to it).
 */
export async function issueInvoice(
  tx: Transaction,
  deps: IssueDeps,
  { order, paymentId, issuedAt, plan, period }: InvoiceInput,
): Promise<{ invoiceNumber: string }> {
  const supplier = supplierOf(deps.config);
  const recipient = await recipientOf(tx, order);
  const amounts = invoiceAmounts(order, isIntraState(supplier, recipient));
  const invoiceNumber = await nextDocumentNumber(tx, 'INV', issuedAt);
  const pdf = await issuedDocumentPdf(
    deps.config,
    invoiceContent({
      invoiceNumber,
      invoiceDate: issuedAt,
      orderId: order.id,
      paymentId,
      supplier,
      recipient,
      sacCode: deps.config.INVOICE_SAC_CODE,
      plan,
      period,
      basePaise: order.basePaise,
      handlingPaise: order.handlingPaise,
      amounts,
    }),
    issuedAt,
  );
  const fileKey = receiptFileKey(order.id);
  // written before the commit: a rollback leaves at most a file that the retry overwrites
  await deps.files.put(fileKey, pdf);
  await tx.insert(invoices).values({
    invoiceNumber,
    customerId: order.customerId,
    orderId: order.id,
    issuedAt,
    customerGstin: recipient.gstin,
    placeOfSupply: recipient.placeOfSupply,
    ...amounts,
    fileKey,
  });
  return { invoiceNumber };
}

export interface RefundInput {
  order: OrderRow;
  planName: string;
  refundId: string;
  /** Everything refunded of the order's payment so far, in paise. */
  refundedPaise: number;
  issuedAt: Date;
}

/**
 * Issues the credit note for what was refunded on an order's invoice beyond what earlier notes
 * credited, and mails it, in the refund's transaction. That transaction holds the order's row
 * (settleInTransaction), so repeated or concurrent refund events credit the same money once;
 * null when there is nothing new to credit.
 */
export async function issueCreditNote(
  tx: Transaction,
  deps: IssueDeps & Pick<AppDeps, 'queue' | 'consents'>,
  { order, planName, refundId, refundedPaise, issuedAt }: RefundInput,
): Promise<CreditNoteRow | null> {
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.orderId, order.id));
  if (!invoice) return null;
  const through = Math.min(refundedPaise, invoice.totalPaise);
  if (through <= invoice.creditedPaise) return null;
  const supplier = supplierOf(deps.config);
  const recipient = await recipientOf(tx, order);
  const amounts = creditAmounts(invoice, invoice.creditedPaise, through);
  const creditNoteNumber = await nextDocumentNumber(tx, 'CN', issuedAt);
  const id = randomUUID();
  const pdf = await issuedDocumentPdf(
    deps.config,
    creditNoteContent({
      creditNoteNumber,
      creditNoteDate: issuedAt,
      invoice: { number: invoice.invoiceNumber, date: invoice.issuedAt },
      orderId: order.id,
      refundId,
      planName,
      supplier,
      recipient,
      sacCode: deps.config.INVOICE_SAC_CODE,
      amounts,
    }),
    issuedAt,
  );
  const fileKey = creditNoteFileKey(id);
  await deps.files.put(fileKey, pdf);
  const [note] = await tx
    .insert(creditNotes)
    .values({
      id,
      creditNoteNumber,
      customerId: order.customerId,
      invoiceId: invoice.id,
      issuedAt,
      refundId,
      creditedThroughPaise: through,
      ...amounts,
      fileKey,
    })
    .returning();
  await tx
    .update(invoices)
    .set({
      creditedPaise: through,
      status: through === invoice.totalPaise ? 'Refunded' : 'Partly refunded',
    })
    .where(eq(invoices.id, invoice.id));
  await enqueueMail(tx, deps, {
    template: 'credit-note',
    to: recipient.email,
    data: {
      creditNoteId: id,
      creditNoteNumber,
      invoiceNumber: invoice.invoiceNumber,
      orderId: order.id,
      planName,
      totalPaise: amounts.totalPaise,
      issuedAt: issuedAt.toISOString(),
      companyName: recipient.companyName,
    },
  });
  return note!;
}
