import { and, eq, sql } from 'drizzle-orm';
import { receiptPath } from '@portal/contract';
import type { Executor, Transaction } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { orders } from '../orders/schema';
import { financialYearOf } from './gst';
import { renderInvoicePdf, type InvoiceData } from './invoice-pdf';
import { invoiceCounters, receipts } from './schema';

/** How long a receipt link opens the PDF. */
export const RECEIPT_LINK_TTL_SECONDS = 10 * 60;

/**
 * The next invoice number of the financial year. The counter row stays locked until the
 * transaction ends, so numbers are gap-free: a rolled-back order gives its number back.
 */
export async function nextInvoiceNumber(tx: Transaction, issuedAt: Date): Promise<string> {
  const year = financialYearOf(issuedAt);
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ financialYear: year, lastNumber: 1 })
    .onConflictDoUpdate({
      target: invoiceCounters.financialYear,
      set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: invoiceCounters.lastNumber });
  return `INV/${year}/${String(row!.lastNumber).padStart(6, '0')}`;
}

export const receiptFileKey = (orderId: string) => `receipts/${orderId}.pdf`;

/** Numbers, renders and stores the tax invoice of a completed order, in its transaction. */
export async function issueReceipt(
  tx: Transaction,
  deps: Pick<AppDeps, 'files' | 'config'>,
  input: Omit<InvoiceData, 'invoiceNumber' | 'supplier' | 'sacCode'>,
): Promise<{ invoiceNumber: string }> {
  const [existing] = await tx
    .select({ invoiceNumber: receipts.invoiceNumber })
    .from(receipts)
    .where(eq(receipts.orderId, input.orderId));
  if (existing) return existing;
  const { config } = deps;
  const invoiceNumber = await nextInvoiceNumber(tx, input.invoiceDate);
  const pdf = await renderInvoicePdf({
    ...input,
    invoiceNumber,
    sacCode: config.INVOICE_SAC_CODE,
    supplier: {
      name: config.INVOICE_SUPPLIER_NAME,
      address: config.INVOICE_SUPPLIER_ADDRESS,
      gstin: config.INVOICE_SUPPLIER_GSTIN,
    },
  });
  const fileKey = receiptFileKey(input.orderId);
  // written before the commit: a rollback leaves at most a file that the retry overwrites
  await deps.files.put(fileKey, pdf);
  await tx
    .insert(receipts)
    .values({ orderId: input.orderId, invoiceNumber, fileKey, issuedAt: input.invoiceDate });
  return { invoiceNumber };
}

/**
 * Whether an order's tax invoice is offered, in the order list and by its download link alike:
 * only while the order is Completed (spec). A refunded order's invoice is offered again
 * together with its credit note (decision 023).
 */
export const receiptOffered = (status: string) => status === 'Completed';

/** A link that opens the receipt in a new tab (no bearer token there), bound to the customer. */
export function receiptLink(
  deps: Pick<AppDeps, 'signedLinks'>,
  orderId: string,
  customerId: string,
) {
  return deps.signedLinks.sign(receiptPath(orderId), customerId, RECEIPT_LINK_TTL_SECONDS);
}

/**
 * The receipt file of an order that belongs to `customerId` and is offered now; anything else
 * is not found, so a link made before a refund stops opening the invoice.
 */
export async function receiptFileFor(db: Executor, orderId: string, customerId: string) {
  const [row] = await db
    .select({
      fileKey: receipts.fileKey,
      invoiceNumber: receipts.invoiceNumber,
      status: orders.status,
    })
    .from(receipts)
    .innerJoin(orders, eq(orders.id, receipts.orderId))
    .where(and(eq(receipts.orderId, orderId), eq(orders.customerId, customerId)));
  if (!row || !receiptOffered(row.status)) {
    throw new AppError('NOT_FOUND', 'Receipt not available for this order.');
  }
  return { fileKey: row.fileKey, invoiceNumber: row.invoiceNumber };
}
