import { formatPaise, orderRef } from '@portal/contract';
import { indiaTime as when, portalUrl } from '../mail/format';
import { renderLayout } from '../mail/layout';
import type { MailContext, RenderedMail } from '../mail/rendered';
import { withStoredPdf } from '../mail/templates';
import { receiptFileKey } from './schema';

/** What the mail of a paid order's invoice is made from: plain JSON, as it waits in the job queue. */
export interface ReceiptMailData {
  orderId: string;
  invoiceNumber: string;
  planName: string;
  totalPaise: number;
  paidAt: string;
  companyName: string;
}

declare module '../mail/templates' {
  interface MailTemplateData {
    receipt: ReceiptMailData;
  }
}

export const receiptSubject = (invoiceNumber: string) => `Your invoice ${invoiceNumber}`;

const lines = (...parts: string[]) => parts.join('\n');

/** `Invoice-INV-2026-27-000001.pdf`: the invoice number, safe as a file name. */
export const invoiceFileName = (invoiceNumber: string) =>
  `Invoice-${invoiceNumber.replace(/[^A-Za-z0-9-]+/g, '-')}.pdf`;

export async function receiptMail(
  data: ReceiptMailData,
  pdf: Buffer,
  ctx: MailContext,
): Promise<RenderedMail> {
  const subject = receiptSubject(data.invoiceNumber);
  const order = orderRef(data.orderId);
  const what = `Thank you for your payment of ${formatPaise(data.totalPaise)} for the ${data.planName} plan (order ${order}).`;
  const attached = `Your GST tax invoice ${data.invoiceNumber} is attached as a PDF.`;
  const history = portalUrl(ctx.publicUrl, '/orders');
  return {
    subject,
    text: lines(
      what,
      attached,
      '',
      `When: ${when(data.paidAt)}`,
      `Order: ${order}`,
      `Invoice: ${data.invoiceNumber}`,
      `Amount: ${formatPaise(data.totalPaise)}`,
      '',
      `Your orders and invoices: ${history}`,
    ),
    html: await renderLayout({
      subject,
      preview: `${what} ${attached}`,
      heading: 'Payment received',
      greeting: data.companyName,
      paragraphs: [what, attached],
      facts: [
        ['When', when(data.paidAt)],
        ['Order', order],
        ['Plan', data.planName],
        ['Invoice', data.invoiceNumber],
        ['Amount', formatPaise(data.totalPaise)],
      ],
      action: { label: 'See your orders', url: history },
      publicUrl: ctx.publicUrl,
    }),
    attachments: [
      {
        filename: invoiceFileName(data.invoiceNumber),
        content: pdf,
        contentType: 'application/pdf',
      },
    ],
  };
}

/** The receipt's mail, with the order's invoice PDF from the store. */
export const receiptMailTemplate = withStoredPdf<'receipt'>(
  (data) => receiptFileKey(data.orderId),
  receiptMail,
);
