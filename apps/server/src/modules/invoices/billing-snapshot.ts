import { gstKind, type GstTaxSplit, type OrderBillingSnapshot } from '@portal/contract';
import type { OrderRow } from '../purchases/schema';

// An order keeps the billing details it was created with, in its own columns: what its invoice
// prints, whatever the customer changes later.

/** The columns that keep an order's billing snapshot. */
export const snapshotColumns = (snapshot: OrderBillingSnapshot) => ({
  billingGstin: snapshot.gstin,
  billingAddressLine1: snapshot.address?.addressLine1 ?? null,
  billingAddressLine2: snapshot.address?.addressLine2 ?? null,
  billingCity: snapshot.address?.city ?? null,
  billingStateCode: snapshot.address?.stateCode ?? null,
  billingPin: snapshot.address?.pin ?? null,
  placeOfSupply: snapshot.placeOfSupply,
  supplierStateCode: snapshot.supplierStateCode,
  cgstPaise: snapshot.taxSplit.cgstPaise,
  sgstPaise: snapshot.taxSplit.sgstPaise,
  igstPaise: snapshot.taxSplit.igstPaise,
});

type SnapshotRow = Pick<OrderRow, keyof ReturnType<typeof snapshotColumns>>;

/**
 * The billing details an order kept when it was created (what its invoice prints), or null for
 * an order created before orders kept them.
 */
export function billingSnapshotOf(row: SnapshotRow): OrderBillingSnapshot | null {
  const { billingGstin, placeOfSupply, supplierStateCode } = row;
  if (billingGstin === null || placeOfSupply === null || supplierStateCode === null) return null;
  const taxSplit: GstTaxSplit = {
    kind: gstKind(supplierStateCode, placeOfSupply),
    cgstPaise: row.cgstPaise ?? 0,
    sgstPaise: row.sgstPaise ?? 0,
    igstPaise: row.igstPaise ?? 0,
  };
  const address =
    row.billingAddressLine1 !== null &&
    row.billingCity !== null &&
    row.billingStateCode !== null &&
    row.billingPin !== null
      ? {
          addressLine1: row.billingAddressLine1,
          addressLine2: row.billingAddressLine2,
          city: row.billingCity,
          stateCode: row.billingStateCode,
          pin: row.billingPin,
        }
      : null;
  return { gstin: billingGstin, address, placeOfSupply, supplierStateCode, taxSplit };
}
