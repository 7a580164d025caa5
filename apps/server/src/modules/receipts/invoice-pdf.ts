import { buffer } from 'node:stream/consumers';
import PDFDocument from 'pdfkit';
import { GST_RATE_PERCENT, HANDLING_RATE_PERCENT, customerDate } from '@portal/contract';
import { rupeesInWords } from './amount-in-words';
import { splitGst, stateCodeOf, stateName } from './gst';
import { INVOICE_PAGE, layOutInvoice } from './invoice-layout';

export interface InvoiceData {
  invoiceNumber: string;
  invoiceDate: Date;
  orderId: string;
  paymentId: string | null;
  supplier: { name: string; address: string; gstin: string };
  customer: { companyName: string; gstin: string; address: string; email: string };
  sacCode: string;
  plan: { name: string; type: string; durationDays: number; companies: number };
  period: { start: Date; end: Date };
  basePaise: number;
  gstPaise: number;
  handlingPaise: number;
  totalPaise: number;
}

/** A description and its amount ('' where the line has none). */
type Row = [label: string, amount: string];

/** A bold first line and the plain lines under it. */
interface Block {
  heading: string;
  lines: string[];
}

/** Everything the invoice says, worded, in reading order. */
export interface InvoiceContent {
  /** The PDF's own title and author, shown by a viewer in its title bar. */
  info: { Title: string; Author: string };
  title: string;
  supplier: Block;
  blocks: Block[];
  table: { head: Row; rows: Row[]; total: Row };
  words: string;
  footnote: string;
}

const amount = new Intl.NumberFormat('en-IN', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
// the PDF's standard fonts have no rupee sign
const inr = (paise: number) => `INR ${amount.format(paise / 100)}`;
const day = customerDate;

/** The words and amounts of the GST tax invoice of a completed order (Rule 46). */
export function invoiceContent(data: InvoiceData): InvoiceContent {
  const supplierState = stateCodeOf(data.supplier.gstin);
  const customerState = stateCodeOf(data.customer.gstin);
  const split = splitGst(data.gstPaise, data.supplier.gstin, data.customer.gstin);
  const tax: Row[] =
    split.kind === 'IGST'
      ? [[`IGST @ ${GST_RATE_PERCENT}%`, inr(split.igstPaise)]]
      : [
          [`CGST @ ${GST_RATE_PERCENT / 2}%`, inr(split.cgstPaise)],
          [`SGST @ ${GST_RATE_PERCENT / 2}%`, inr(split.sgstPaise)],
        ];
  const { plan } = data;
  const companies = `${plan.companies} ${plan.companies === 1 ? 'Company' : 'Companies'}`;
  return {
    info: { Title: `Tax Invoice ${data.invoiceNumber}`, Author: data.supplier.name },
    title: 'TAX INVOICE',
    supplier: {
      heading: data.supplier.name,
      lines: [
        data.supplier.address,
        `GSTIN: ${data.supplier.gstin}`,
        `State: ${stateName(supplierState)} (${supplierState})`,
      ],
    },
    blocks: [
      {
        heading: `Invoice No: ${data.invoiceNumber}`,
        lines: [
          `Invoice Date: ${day(data.invoiceDate)}`,
          `Order ID: ${data.orderId}`,
          ...(data.paymentId ? [`Payment ID: ${data.paymentId}`] : []),
        ],
      },
      {
        heading: 'Billed To',
        lines: [
          data.customer.companyName,
          `GSTIN: ${data.customer.gstin}`,
          `Address: ${data.customer.address}`,
          `E-mail: ${data.customer.email}`,
          `Place of Supply: ${stateName(customerState)} (${customerState})`,
        ],
      },
    ],
    table: {
      head: ['Description', 'Amount'],
      rows: [
        [
          `${plan.name} plan (${plan.type}, ${companies}, ${plan.durationDays} days)`,
          inr(data.basePaise),
        ],
        [`Service period: ${day(data.period.start)} to ${day(data.period.end)}`, ''],
        [`SAC: ${data.sacCode}`, ''],
        ['Taxable value', inr(data.basePaise)],
        ...tax,
        [`Internet Handling Charges @ ${HANDLING_RATE_PERCENT}%`, inr(data.handlingPaise)],
      ],
      total: ['Total', inr(data.totalPaise)],
    },
    words: `Amount in words: ${rupeesInWords(data.totalPaise)}`,
    footnote: 'This invoice is valid without a signature.',
  };
}

/** The GST tax invoice of a completed order, as a PDF. */
export function renderInvoicePdf(data: InvoiceData): Promise<Buffer> {
  const content = invoiceContent(data);
  const doc = new PDFDocument({ ...INVOICE_PAGE, info: content.info });
  const pdf = buffer(doc);
  layOutInvoice(doc, content);
  doc.end();
  return pdf;
}
