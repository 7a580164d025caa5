import { eq } from 'drizzle-orm';
import { GST_STATES, type BillingAddress } from '@portal/contract';
import type { Executor } from '../../db/client';
import type { Config } from '../../config';
import { stateCodeOf } from './gst';
import type { OrderRow } from '../purchases/schema';
import { billingSnapshotOf } from './billing-snapshot';
import { customers } from '../users/schema';
import type { Recipient, Supplier } from './content';

/** The supplier every document names, from configuration. */
export const supplierOf = (config: Config): Supplier => ({
  name: config.INVOICE_SUPPLIER_NAME,
  address: config.INVOICE_SUPPLIER_ADDRESS,
  gstin: config.INVOICE_SUPPLIER_GSTIN,
});

/** `Office 4, Baner Road, Pune 411045, Maharashtra`: an address on one line. */
const addressLine = (address: BillingAddress) =>
  [
    address.addressLine1,
    address.addressLine2,
    `${address.city} ${address.pin}`,
    GST_STATES[address.stateCode],
  ]
    .filter(Boolean)
    .join(', ');

/**
 * Who an order's documents are issued to: the billing details the order kept when it was
 * created (decision 037). An order from before it kept them, or placed without an address,
 * names the customer's GSTIN and its State, as invoices did before.
 */
export async function recipientOf(db: Executor, order: OrderRow): Promise<Recipient> {
  const [customer] = await db.select().from(customers).where(eq(customers.id, order.customerId));
  const snapshot = billingSnapshotOf(order);
  const gstin = snapshot?.gstin ?? customer!.gstNo;
  return {
    companyName: customer!.companyName,
    gstin,
    address: snapshot?.address
      ? addressLine(snapshot.address)
      : 'As registered under the GSTIN above',
    email: customer!.email,
    placeOfSupply: snapshot?.placeOfSupply ?? stateCodeOf(gstin),
    billingAddress: snapshot?.address ?? null,
  };
}
