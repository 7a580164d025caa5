import { eq } from 'drizzle-orm';
import {
  GST_STATES,
  gstKind,
  isValidGstin,
  type BillingAddress,
  type BillingDetails,
  type BillingDetailsInput,
  type OrderBillingSnapshot,
} from '@portal/contract';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { invoiceAmounts } from '../invoices/amounts';
import { findCustomerById } from '../users/service';
import { billingDetails, type BillingDetailsRow } from './schema';

/** The seller's State: the first two digits of the GSTIN printed on its invoices. */
export const supplierStateCode = (config: AppDeps['config']) =>
  config.INVOICE_SUPPLIER_GSTIN.slice(0, 2);

const addressOf = (row: BillingDetailsRow): BillingAddress => ({
  addressLine1: row.addressLine1,
  addressLine2: row.addressLine2,
  city: row.city,
  stateCode: row.stateCode,
  pin: row.pin,
});

const toBillingDetails = (row: BillingDetailsRow): BillingDetails => ({
  ...addressOf(row),
  gstin: row.gstin,
  stateName: GST_STATES[row.stateCode] ?? row.stateCode,
  updatedAt: row.updatedAt.toISOString(),
});

async function findBillingRow(db: Executor, customerId: string) {
  const [row] = await db
    .select()
    .from(billingDetails)
    .where(eq(billingDetails.customerId, customerId));
  return row ?? null;
}

async function registeredGstin(db: Executor, customerId: string): Promise<string> {
  const customer = await findCustomerById(db, customerId);
  if (!customer) throw new AppError('NOT_FOUND', 'Customer not found');
  return customer.gstNo;
}

/** The customer's billing details (null until given), with what the form starts from. */
export async function readBillingDetails(deps: Pick<AppDeps, 'db' | 'config'>, customerId: string) {
  const [row, gstin] = await Promise.all([
    findBillingRow(deps.db, customerId),
    registeredGstin(deps.db, customerId),
  ]);
  return {
    billingDetails: row && toBillingDetails(row),
    registeredGstin: gstin,
    supplierStateCode: supplierStateCode(deps.config),
  };
}

/** Saves the customer's billing details, replacing any before; past orders keep their copy. */
export async function saveBillingDetails(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  customerId: string,
  input: BillingDetailsInput,
): Promise<BillingDetails> {
  const values = {
    gstin: input.gstin,
    addressLine1: input.addressLine1,
    addressLine2: input.addressLine2 || null,
    city: input.city,
    stateCode: input.stateCode,
    pin: input.pin,
    updatedAt: deps.clock.now(),
  };
  const [row] = await deps.db
    .insert(billingDetails)
    .values({ customerId, ...values })
    .onConflictDoUpdate({ target: billingDetails.customerId, set: values })
    .returning();
  return toBillingDetails(row!);
}

/** An order's amounts, as the invoice reads them (decision 038). */
type OrderAmounts = Parameters<typeof invoiceAmounts>[0];

/**
 * What an order being created keeps of the billing details, with the tax its invoice states
 * split by the place of supply. Without an address on record, the place of supply is the State
 * of the GSTIN the customer registered with, or, when that is no valid GSTIN, the seller's own
 * State (IGST Act, section 12(2)); see decision 037.
 */
export async function billingSnapshotFor(
  tx: Executor,
  config: AppDeps['config'],
  customerId: string,
  amounts: OrderAmounts,
): Promise<OrderBillingSnapshot> {
  const supplier = supplierStateCode(config);
  const row = await findBillingRow(tx, customerId);
  const gstin = row ? row.gstin : await registeredGstin(tx, customerId);
  const placeOfSupply = row ? row.stateCode : isValidGstin(gstin) ? gstin.slice(0, 2) : supplier;
  const kind = gstKind(supplier, placeOfSupply);
  const { cgstPaise, sgstPaise, igstPaise } = invoiceAmounts(amounts, kind === 'CGST+SGST');
  return {
    gstin,
    address: row && addressOf(row),
    placeOfSupply,
    supplierStateCode: supplier,
    taxSplit: { kind, cgstPaise, sgstPaise, igstPaise },
  };
}
