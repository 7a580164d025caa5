import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client';
import type { AppDeps } from '../../deps';
import { sealMail } from '../mail/delivery';
import type { MailRequest } from '../mail/templates';
import type { OrderRow } from '../purchases/schema';
import { creditAmounts, invoiceAmounts } from './amounts';
// the mails this issues: their templates' data, declared there
import type {} from './credit-note-mail';
import type {} from './invoice-mail';
import { creditNoteContent, invoiceContent, isIntraState, type InvoiceData } from './content';
import { sendDocumentDraw } from './draw';
import { registrationColumns } from './e-invoice-document';
import { nextDocumentNumber } from './numbering';
import { recipientOf, supplierOf } from './recipient';
import {
  creditNoteFileKey,
  creditNotes,
  invoices,
  receiptFileKey,
  type CreditNoteRow,
} from './schema';

type IssueDeps = Pick<AppDeps, 'config' | 'queue' | 'consents' | 'eInvoicing'>;

export interface InvoiceInput {
  order: OrderRow;
  paymentId: string | null;
  issuedAt: Date;
  plan: InvoiceData['plan'];
  period: InvoiceData['period'];
  /** The receipt mail, made with the invoice's number; it goes once the PDF is stored. */
  mail: (invoiceNumber: string) => MailRequest<'receipt'>;
}

/**
 * Numbers and words the tax invoice of an order as it completes, in its settling transaction
 * (an order completes once; its invoice is unique to it). Its PDF is drawn after the commit
 * (decision 070), so the financial year's counter is held only for the numbering.
 */
export async function issueInvoice(
  tx: Transaction,
  deps: IssueDeps,
  { order, paymentId, issuedAt, plan, period, mail }: InvoiceInput,
): Promise<{ invoiceNumber: string }> {
  const supplier = supplierOf(deps.config);
  const recipient = await recipientOf(tx, order);
  const amounts = invoiceAmounts(order, isIntraState(supplier, recipient));
  const invoiceNumber = await nextDocumentNumber(tx, 'INV', issuedAt);
  const content = invoiceContent({
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
  });
  const [invoice] = await tx
    .insert(invoices)
    .values({
      invoiceNumber,
      customerId: order.customerId,
      orderId: order.id,
      issuedAt,
      customerGstin: recipient.gstin,
      placeOfSupply: recipient.placeOfSupply,
      ...amounts,
      fileKey: receiptFileKey(order.id),
      content,
      ...registrationColumns(deps.eInvoicing, {
        type: 'INV',
        number: invoiceNumber,
        issuedAt,
        supplier,
        recipient,
        sacCode: deps.config.INVOICE_SAC_CODE,
        description: `${plan.name} plan, ${plan.durationDays} days`,
        amounts,
      }),
    })
    .returning({ id: invoices.id });
  await sendDocumentDraw(tx, deps, {
    document: 'invoice',
    id: invoice!.id,
    mail: sealMail(deps, mail(invoiceNumber)),
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
 * credited, in the refund's transaction; its PDF is drawn and mailed after the commit. That transaction holds the order's row
 * (settleInTransaction), so repeated or concurrent refund events credit the same money once;
 * null when there is nothing new to credit.
 */
export async function issueCreditNote(
  tx: Transaction,
  deps: IssueDeps,
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
  const content = creditNoteContent({
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
  });
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
      fileKey: creditNoteFileKey(id),
      content,
      ...registrationColumns(deps.eInvoicing, {
        type: 'CRN',
        number: creditNoteNumber,
        issuedAt,
        supplier,
        recipient,
        sacCode: deps.config.INVOICE_SAC_CODE,
        description: `Refund for the ${planName} plan`,
        amounts,
        invoice: { number: invoice.invoiceNumber, issuedAt: invoice.issuedAt },
      }),
    })
    .returning();
  await tx
    .update(invoices)
    .set({
      creditedPaise: through,
      status: through === invoice.totalPaise ? 'Refunded' : 'Partly refunded',
    })
    .where(eq(invoices.id, invoice.id));
  const creditNoteMail = sealMail(deps, {
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
  await sendDocumentDraw(tx, deps, { document: 'credit-note', id, mail: creditNoteMail });
  return note!;
}
