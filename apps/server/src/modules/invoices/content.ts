import {
  GST_RATE_PERCENT,
  HANDLING_RATE_PERCENT,
  customerDate,
  stateLabel,
  formatPaise,
  type BillingAddress,
} from '@portal/contract';
import { rupeesInWords } from './amount-in-words';
import { stateCodeOf } from './gst';
import { handlingTaxableOf, type DocumentAmounts } from './amounts';
import type { Block, DocumentContent, Row } from './document-content';

export interface Supplier {
  name: string;
  address: string;
  gstin: string;
}

/** Who the document is issued to, as the order's billing details name them. */
export interface Recipient {
  companyName: string;
  gstin: string;
  address: string;
  email: string;
  /** The GST state code of the place of supply. */
  placeOfSupply: string;
  /** The address its parts, where the order kept one (the e-invoice names them apart). */
  billingAddress?: BillingAddress | null;
}

export interface InvoiceData {
  invoiceNumber: string;
  invoiceDate: Date;
  orderId: string;
  paymentId: string | null;
  supplier: Supplier;
  recipient: Recipient;
  sacCode: string;
  plan: { name: string; type: string; durationDays: number; companies: number };
  period: { start: Date; end: Date };
  basePaise: number;
  handlingPaise: number;
  amounts: DocumentAmounts;
}

export interface CreditNoteData {
  creditNoteNumber: string;
  creditNoteDate: Date;
  invoice: { number: string; date: Date };
  orderId: string;
  refundId: string;
  planName: string;
  supplier: Supplier;
  recipient: Recipient;
  sacCode: string;
  amounts: DocumentAmounts;
}

const day = customerDate;

function supplierBlock(supplier: Supplier): Block {
  return {
    heading: supplier.name,
    lines: [
      supplier.address,
      `GSTIN: ${supplier.gstin}`,
      `State: ${stateLabel(stateCodeOf(supplier.gstin))}`,
    ],
  };
}

function recipientBlock(recipient: Recipient): Block {
  return {
    heading: 'Billed To',
    lines: [
      recipient.companyName,
      `GSTIN: ${recipient.gstin}`,
      `Address: ${recipient.address}`,
      `E-mail: ${recipient.email}`,
      `Place of Supply: ${stateLabel(recipient.placeOfSupply)}`,
    ],
  };
}

/** The taxable value, each tax at its rate, and any charge outside the taxable value. */
function taxRows(amounts: DocumentAmounts, intraState: boolean): Row[] {
  const tax: Row[] = intraState
    ? [
        [`CGST @ ${GST_RATE_PERCENT / 2}%`, formatPaise(amounts.cgstPaise)],
        [`SGST @ ${GST_RATE_PERCENT / 2}%`, formatPaise(amounts.sgstPaise)],
      ]
    : [[`IGST @ ${GST_RATE_PERCENT}%`, formatPaise(amounts.igstPaise)]];
  const untaxed: Row[] =
    amounts.untaxedPaise > 0
      ? [
          [
            'Internet Handling Charges (outside the taxable value)',
            formatPaise(amounts.untaxedPaise),
          ],
        ]
      : [];
  return [['Taxable value', formatPaise(amounts.taxablePaise)], ...tax, ...untaxed];
}

/** Whether the supply is within one state: CGST + SGST, else IGST. */
export const isIntraState = (supplier: Supplier, recipient: Recipient) =>
  stateCodeOf(supplier.gstin) === recipient.placeOfSupply;

/** The words and amounts of the GST tax invoice of a completed order (Rule 46). */
export function invoiceContent(data: InvoiceData): DocumentContent {
  const { plan, amounts } = data;
  const companies = `${plan.companies} ${plan.companies === 1 ? 'Company' : 'Companies'}`;
  return {
    info: { Title: `Tax Invoice ${data.invoiceNumber}`, Author: data.supplier.name },
    title: 'TAX INVOICE',
    supplier: supplierBlock(data.supplier),
    blocks: [
      {
        heading: `Invoice No: ${data.invoiceNumber}`,
        lines: [
          `Invoice Date: ${day(data.invoiceDate)}`,
          `Order ID: ${data.orderId}`,
          ...(data.paymentId ? [`Payment ID: ${data.paymentId}`] : []),
          'Reverse charge: No',
        ],
      },
      recipientBlock(data.recipient),
    ],
    table: {
      head: ['Description', 'Amount'],
      rows: [
        [
          `${plan.name} plan (${plan.type}, ${companies}, ${plan.durationDays} days)`,
          formatPaise(data.basePaise),
        ],
        [
          // decision 038: the charge is part of the taxable value, and its GST is in the tax below
          `Internet Handling Charges @ ${HANDLING_RATE_PERCENT}% (${formatPaise(data.handlingPaise)} including GST)`,
          formatPaise(handlingTaxableOf(amounts, data.basePaise)),
        ],
        [`Service period: ${day(data.period.start)} to ${day(data.period.end)}`, ''],
        [`SAC: ${data.sacCode}`, ''],
        ...taxRows(amounts, isIntraState(data.supplier, data.recipient)),
      ],
      total: ['Total', formatPaise(amounts.totalPaise)],
    },
    words: `Amount in words: ${rupeesInWords(amounts.totalPaise)}`,
  };
}

/** The words and amounts of a GST credit note for money refunded on an invoice (Rule 53). */
export function creditNoteContent(data: CreditNoteData): DocumentContent {
  const { amounts } = data;
  return {
    info: { Title: `Credit Note ${data.creditNoteNumber}`, Author: data.supplier.name },
    title: 'CREDIT NOTE',
    supplier: supplierBlock(data.supplier),
    blocks: [
      {
        heading: `Credit Note No: ${data.creditNoteNumber}`,
        lines: [
          `Credit Note Date: ${day(data.creditNoteDate)}`,
          `Against Invoice No: ${data.invoice.number} dated ${day(data.invoice.date)}`,
          `Order ID: ${data.orderId}`,
          `Refund ID: ${data.refundId}`,
          'Reason: Refund of the payment',
          'Reverse charge: No',
        ],
      },
      recipientBlock(data.recipient),
    ],
    table: {
      head: ['Description', 'Amount'],
      rows: [
        [`Refund for the ${data.planName} plan`, ''],
        [`SAC: ${data.sacCode}`, ''],
        ...taxRows(amounts, isIntraState(data.supplier, data.recipient)),
      ],
      total: ['Total credit', formatPaise(amounts.totalPaise)],
    },
    words: `Amount in words: ${rupeesInWords(amounts.totalPaise)}`,
  };
}
