import {
  customerDate,
  GST_RATE_PERCENT,
  GST_STATES,
  isValidGstin,
  type BillingAddress,
  type EInvoiceStatus,
} from '@portal/contract';
import type { AppDeps } from '../../deps';
import { addressParts } from '../../lib/address-parts';
import type { DocumentAmounts } from './amounts';
import type { Recipient, Supplier } from './content';
import { stateCodeOf } from './gst';

// A tax invoice or credit note as the IRP takes it: INV-01, schema version 1.1 (decision 083).

/** INV-01 writes a date as dd/mm/yyyy of India's calendar, as every document here does. */
export const inv01Date = customerDate;

/** Paise as INV-01's rupees, to two decimals. */
const rupees = (paise: number) => paise / 100;

/** INV-01 asks at least three characters of a name or place; shorter ones are padded. */
const atLeastThree = (text: string, most: number) => text.slice(0, most).padEnd(3, '.');

function buyerDetails(recipient: Recipient) {
  const stateCode = stateCodeOf(recipient.gstin);
  const address: BillingAddress | null | undefined = recipient.billingAddress;
  const where = address
    ? {
        Addr1: address.addressLine1.slice(0, 100),
        ...(address.addressLine2 && address.addressLine2.length >= 3
          ? { Addr2: address.addressLine2.slice(0, 100) }
          : {}),
        Loc: atLeastThree(address.city, 50),
        Pin: Number(address.pin),
        Stcd: address.stateCode,
      }
    : // an order from before orders kept an address: the GSTIN's registered address, by State
      {
        Addr1: recipient.address,
        Loc: atLeastThree(GST_STATES[stateCode] ?? stateCode, 50),
        Stcd: stateCode,
      };
  return {
    Gstin: recipient.gstin,
    LglNm: atLeastThree(recipient.companyName, 100),
    Pos: recipient.placeOfSupply,
    ...where,
    Em: recipient.email,
  };
}

export interface EInvoiceDocumentInput {
  type: 'INV' | 'CRN';
  number: string;
  issuedAt: Date;
  supplier: Supplier;
  recipient: Recipient;
  sacCode: string;
  /** What was supplied, in a line. */
  description: string;
  amounts: DocumentAmounts;
  /** A credit note's invoice. */
  invoice?: { number: string; issuedAt: Date };
}

/**
 * The INV-01 document of a tax invoice or credit note: one line of service (the subscription
 * under its SAC, at the GST rate), its taxes as the document splits them, and a credit note's
 * invoice as its preceding document.
 */
export function eInvoiceDocument(input: EInvoiceDocumentInput): object {
  const { amounts, supplier } = input;
  const address = addressParts(supplier.address);
  // loadConfig refuses E_INVOICING=on with an address that has none
  if (!address) throw new Error('the supplier address names no city and PIN');
  const tax = amounts.cgstPaise + amounts.sgstPaise + amounts.igstPaise;
  return {
    Version: '1.1',
    TranDtls: { TaxSch: 'GST', SupTyp: 'B2B', RegRev: 'N' },
    DocDtls: { Typ: input.type, No: input.number, Dt: inv01Date(input.issuedAt) },
    SellerDtls: {
      Gstin: supplier.gstin,
      LglNm: atLeastThree(supplier.name, 100),
      Addr1: address.street.slice(0, 100),
      Loc: address.city,
      Pin: address.pin,
      Stcd: stateCodeOf(supplier.gstin),
    },
    BuyerDtls: buyerDetails(input.recipient),
    ItemList: [
      {
        SlNo: '1',
        PrdDesc: input.description.slice(0, 300),
        IsServc: 'Y',
        HsnCd: input.sacCode,
        Qty: 1,
        Unit: 'OTH',
        UnitPrice: rupees(amounts.taxablePaise),
        TotAmt: rupees(amounts.taxablePaise),
        AssAmt: rupees(amounts.taxablePaise),
        GstRt: GST_RATE_PERCENT,
        CgstAmt: rupees(amounts.cgstPaise),
        SgstAmt: rupees(amounts.sgstPaise),
        IgstAmt: rupees(amounts.igstPaise),
        TotItemVal: rupees(amounts.taxablePaise + tax),
      },
    ],
    ValDtls: {
      AssVal: rupees(amounts.taxablePaise),
      CgstVal: rupees(amounts.cgstPaise),
      SgstVal: rupees(amounts.sgstPaise),
      IgstVal: rupees(amounts.igstPaise),
      // the Internet Handling Charge of invoices from before decision 038, outside the taxable value
      ...(amounts.untaxedPaise > 0 ? { OthChrg: rupees(amounts.untaxedPaise) } : {}),
      TotInvVal: rupees(amounts.totalPaise),
    },
    ...(input.invoice
      ? {
          RefDtls: {
            PrecDocDtls: [
              { InvNo: input.invoice.number, InvDt: inv01Date(input.invoice.issuedAt) },
            ],
          },
        }
      : {}),
  };
}

/**
 * What a document's row holds to be registered, where a registration is owed: with
 * E_INVOICING=on, for a buyer with a GSTIN (B2B). A buyer with none (B2C) is not registered.
 */
export function registrationColumns(
  eInvoicing: AppDeps['eInvoicing'],
  input: EInvoiceDocumentInput,
): { eInvoiceStatus: EInvoiceStatus; eInvoiceDocument: object } | Record<string, never> {
  if (!eInvoicing || !isValidGstin(input.recipient.gstin)) return {};
  return { eInvoiceStatus: 'Being registered', eInvoiceDocument: eInvoiceDocument(input) };
}
