import { and, eq } from 'drizzle-orm';
import { receiptPath } from '@portal/contract';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { ensureDrawn } from '../invoices/draw';
import { invoices } from '../invoices/schema';
import { orders } from './schema';

/** How long a receipt link opens the PDF. */
export const RECEIPT_LINK_TTL_SECONDS = 10 * 60;

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
      fileKey: invoices.fileKey,
      invoiceNumber: invoices.invoiceNumber,
      drawnAt: invoices.drawnAt,
      status: orders.status,
    })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(and(eq(invoices.orderId, orderId), eq(orders.customerId, customerId)));
  if (!row || !receiptOffered(row.status)) {
    throw new AppError('NOT_FOUND', 'Receipt not available for this order.');
  }
  ensureDrawn(row.drawnAt);
  return { fileKey: row.fileKey, invoiceNumber: row.invoiceNumber };
}
