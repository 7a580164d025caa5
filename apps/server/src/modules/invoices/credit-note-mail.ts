import { customerDate, formatPaise, orderRef } from '@portal/contract';
import { portalUrl } from '../mail/format';
import { renderLayout } from '../mail/layout';
import type { MailContext, RenderedMail } from '../mail/rendered';
import { withStoredPdf } from '../mail/templates';
import { creditNoteFileKey } from './schema';

/** What the credit note's mail is made from: plain JSON, as it waits in the job queue. */
export interface CreditNoteMailData {
  creditNoteId: string;
  creditNoteNumber: string;
  invoiceNumber: string;
  orderId: string;
  planName: string;
  totalPaise: number;
  issuedAt: string;
  companyName: string;
}

declare module '../mail/templates' {
  interface MailTemplateData {
    'credit-note': CreditNoteMailData;
  }
}

export const creditNoteSubject = (creditNoteNumber: string) =>
  `Your credit note ${creditNoteNumber}`;

/** `CreditNote-CN-26-27-000001.pdf`: the number, safe as a file name. */
export const creditNoteFileName = (creditNoteNumber: string) =>
  `CreditNote-${creditNoteNumber.replace(/[^A-Za-z0-9-]+/g, '-')}.pdf`;

/** The credit note of a refund, with its PDF attached. */
export async function creditNoteMail(
  data: CreditNoteMailData,
  pdf: Buffer,
  ctx: MailContext,
): Promise<RenderedMail> {
  const subject = creditNoteSubject(data.creditNoteNumber);
  const order = orderRef(data.orderId);
  const what = `${formatPaise(data.totalPaise)} of your payment for the ${data.planName} plan (order ${order}) was refunded.`;
  const attached = `Your GST credit note ${data.creditNoteNumber}, against invoice ${data.invoiceNumber}, is attached as a PDF.`;
  const list = portalUrl(ctx.publicUrl, '/invoices');
  const date = customerDate(new Date(data.issuedAt));
  return {
    subject,
    text: [
      what,
      attached,
      '',
      `Date: ${date}`,
      `Credit note: ${data.creditNoteNumber}`,
      `Invoice: ${data.invoiceNumber}`,
      `Amount: ${formatPaise(data.totalPaise)}`,
      '',
      `Your invoices and credit notes: ${list}`,
    ].join('\n'),
    html: await renderLayout({
      subject,
      preview: `${what} ${attached}`,
      heading: 'Refund credited',
      greeting: data.companyName,
      paragraphs: [what, attached],
      facts: [
        ['Date', date],
        ['Order', order],
        ['Credit note', data.creditNoteNumber],
        ['Invoice', data.invoiceNumber],
        ['Amount', formatPaise(data.totalPaise)],
      ],
      action: { label: 'See your invoices', url: list },
      publicUrl: ctx.publicUrl,
    }),
    attachments: [
      {
        filename: creditNoteFileName(data.creditNoteNumber),
        content: pdf,
        contentType: 'application/pdf',
      },
    ],
  };
}

/** The credit note's mail, with its PDF from the store. */
export const creditNoteMailTemplate = withStoredPdf<'credit-note'>(
  (data) => creditNoteFileKey(data.creditNoteId),
  creditNoteMail,
);
