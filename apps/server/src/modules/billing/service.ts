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
import {
  jsonInstant,
  runSessionRead,
  sessionReadText,
  type SessionColumns,
  type UnrevokedSession,
  type SessionAuth,
} from '../../db/session-read';
import type { Statement } from '../../db/statements';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { invoiceAmounts } from '../invoices/amounts';
import { findCustomerById } from '../users/service';
import { billingDetails, type BillingDetailsRow } from './schema';

/** The seller's State: the first two digits of the GSTIN printed on its invoices. */
export const supplierStateCode = (config: AppDeps['config']) =>
  config.INVOICE_SUPPLIER_GSTIN.slice(0, 2);

/** A customer's details, as a read of them needs: whose they are is known already. */
type Details = Omit<BillingDetailsRow, 'customerId'>;

const addressOf = (row: Details): BillingAddress => ({
  addressLine1: row.addressLine1,
  addressLine2: row.addressLine2,
  city: row.city,
  stateCode: row.stateCode,
  pin: row.pin,
});

const toBillingDetails = (row: Details): BillingDetails => ({
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

/**
 * The billing screen's statement: the customer's details (null until given) as one JSON value,
 * and the GSTIN they registered with, beside the request's session. $1 the session, $2 the
 * customer; both rows are found by their primary keys.
 */
const detailsScreen: Statement = {
  name: 'billing_details_screen',
  text: sessionReadText(`(SELECT json_build_object('gstin', b.gstin,
      'addressLine1', b.address_line1, 'addressLine2', b.address_line2, 'city', b.city,
      'stateCode', b.state_code, 'pin', b.pin, 'updatedAt', ${jsonInstant('b.updated_at')})
    FROM billing_details b WHERE b.customer_id = $2::uuid) AS "billingDetails",
  (SELECT c.gst_no FROM customers c WHERE c.id = $2::uuid) AS "registeredGstin"`),
};

/** The details as the screen's statement writes them: its instant as ISO text. */
type StoredDetails = Omit<Details, 'updatedAt'> & { updatedAt: string };

interface DetailsScreenRow extends SessionColumns {
  billingDetails: StoredDetails | null;
  /** Never null: a session's customer row stands while the session does (its rows cascade). */
  registeredGstin: string;
}

/** The billing screen: the customer's details (null until given), and what the form starts from. */
export interface BillingDetailsScreen {
  billingDetails: BillingDetails | null;
  registeredGstin: string;
  supplierStateCode: string;
}

/**
 * The customer's billing screen, and the session read beside it for the route to confirm.
 * Without a session there is no row: no screen, nothing of the customer's.
 */
export async function readBillingDetails(
  deps: Pick<AppDeps, 'db' | 'config'>,
  auth: SessionAuth,
): Promise<{ screen: BillingDetailsScreen | undefined; session: UnrevokedSession | undefined }> {
  const { row, session } = await runSessionRead<DetailsScreenRow>(deps.db, auth, detailsScreen, []);
  const stored = row?.billingDetails;
  const screen = row && {
    billingDetails: stored
      ? toBillingDetails({ ...stored, updatedAt: new Date(stored.updatedAt) })
      : null,
    registeredGstin: row.registeredGstin,
    supplierStateCode: supplierStateCode(deps.config),
  };
  return { screen, session };
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
