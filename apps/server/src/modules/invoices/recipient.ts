import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import type { Config } from '../../config';
import { stateCodeOf } from '../receipts/gst';
import type { OrderRow } from '../orders/schema';
import { customers } from '../users/schema';
import type { Recipient, Supplier } from './content';

/** The supplier every document names, from configuration. */
export const supplierOf = (config: Config): Supplier => ({
  name: config.INVOICE_SUPPLIER_NAME,
  address: config.INVOICE_SUPPLIER_ADDRESS,
  gstin: config.INVOICE_SUPPLIER_GSTIN,
});

/** Who an order's documents are issued to. */
export async function recipientOf(db: Executor, order: OrderRow): Promise<Recipient> {
  const [customer] = await db.select().from(customers).where(eq(customers.id, order.customerId));
  return {
    companyName: customer!.companyName,
    gstin: customer!.gstNo,
    address: 'As registered under the GSTIN above',
    email: customer!.email,
    placeOfSupply: stateCodeOf(customer!.gstNo),
  };
}
