import PDFDocument from 'pdfkit';
import { GST_RATE_PERCENT, HANDLING_RATE_PERCENT, customerDate } from '@portal/contract';
import { rupeesInWords } from './amount-in-words';
import { splitGst, stateCodeOf, stateName } from './gst';

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

const amount = new Intl.NumberFormat('en-IN', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
// the PDF's standard fonts have no rupee sign
const inr = (paise: number) => `INR ${amount.format(paise / 100)}`;
const day = customerDate;

/** The GST tax invoice of a completed order, as a PDF. */
export function renderInvoicePdf(data: InvoiceData): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `Tax Invoice ${data.invoiceNumber}`, Author: data.supplier.name },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const supplierState = stateCodeOf(data.supplier.gstin);
  const customerState = stateCodeOf(data.customer.gstin);
  const split = splitGst(data.gstPaise, data.supplier.gstin, data.customer.gstin);
  const left = 50;
  const width = 495;

  doc.font('Helvetica-Bold').fontSize(18).text('TAX INVOICE', { align: 'center' });
  doc.moveDown(0.8);
  doc.fontSize(11).text(data.supplier.name);
  doc.font('Helvetica').fontSize(9).text(data.supplier.address);
  doc.text(`GSTIN: ${data.supplier.gstin}`);
  doc.text(`State: ${stateName(supplierState)} (${supplierState})`);
  doc.moveDown();

  doc.font('Helvetica-Bold').fontSize(10).text(`Invoice No: ${data.invoiceNumber}`);
  doc.font('Helvetica').fontSize(9);
  doc.text(`Invoice Date: ${day(data.invoiceDate)}`);
  doc.text(`Order ID: ${data.orderId}`);
  if (data.paymentId) doc.text(`Payment ID: ${data.paymentId}`);
  doc.moveDown();

  doc.font('Helvetica-Bold').fontSize(10).text('Billed To');
  doc.font('Helvetica').fontSize(9);
  doc.text(data.customer.companyName);
  doc.text(`GSTIN: ${data.customer.gstin}`);
  doc.text(`Address: ${data.customer.address}`);
  doc.text(`E-mail: ${data.customer.email}`);
  doc.text(`Place of Supply: ${stateName(customerState)} (${customerState})`);
  doc.moveDown();

  const rows: [string, string][] = [
    [
      `${data.plan.name} plan (${data.plan.type}, ${data.plan.companies} ${data.plan.companies === 1 ? 'Company' : 'Companies'}, ${data.plan.durationDays} days)`,
      inr(data.basePaise),
    ],
    [`Service period: ${day(data.period.start)} to ${day(data.period.end)}`, ''],
    [`SAC: ${data.sacCode}`, ''],
    ['Taxable value', inr(data.basePaise)],
    ...(split.kind === 'IGST'
      ? ([[`IGST @ ${GST_RATE_PERCENT}%`, inr(split.igstPaise)]] as [string, string][])
      : ([
          [`CGST @ ${GST_RATE_PERCENT / 2}%`, inr(split.cgstPaise)],
          [`SGST @ ${GST_RATE_PERCENT / 2}%`, inr(split.sgstPaise)],
        ] as [string, string][])),
    [`Internet Handling Charges @ ${HANDLING_RATE_PERCENT}%`, inr(data.handlingPaise)],
  ];
  doc.font('Helvetica-Bold').fontSize(10);
  let y = doc.y;
  doc.text('Description', left, y, { width: 340 });
  doc.text('Amount', left + 345, y, { width: 150, align: 'right' });
  doc
    .moveTo(left, doc.y + 3)
    .lineTo(left + width, doc.y + 3)
    .stroke();
  doc.moveDown(0.6);
  doc.font('Helvetica').fontSize(9);
  for (const [label, value] of rows) {
    y = doc.y;
    doc.text(label, left, y, { width: 340 });
    const after = doc.y;
    if (value) doc.text(value, left + 345, y, { width: 150, align: 'right' });
    doc.y = Math.max(after, doc.y) + 2;
  }
  doc
    .moveTo(left, doc.y + 2)
    .lineTo(left + width, doc.y + 2)
    .stroke();
  doc.moveDown(0.6);
  doc.font('Helvetica-Bold').fontSize(11);
  y = doc.y;
  doc.text('Total', left, y, { width: 340 });
  doc.text(inr(data.totalPaise), left + 345, y, { width: 150, align: 'right' });
  doc.moveDown();
  doc.font('Helvetica').fontSize(9);
  doc.text(`Amount in words: ${rupeesInWords(data.totalPaise)}`, left, doc.y, { width });
  doc.moveDown(2);
  doc
    .fontSize(8)
    .fillColor('#555555')
    .text('This invoice is valid without a signature.', left, doc.y, {
      width,
      align: 'center',
    });
  doc.end();
  return done;
}
