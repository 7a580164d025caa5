import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboxMailer, type Mailer } from '../../adapters/mail';
import { linksOf, readOutbox, type ReadMail } from '../../test/mail';
import { creditNoteFileName, creditNoteMail, type CreditNoteMailData } from './credit-note-mail';

// a portal under a path, so that a link built from the host alone would show
const ctx = { publicUrl: 'https://portal.example.in/customers/' };
const LIST = 'https://portal.example.in/customers/invoices';
const data: CreditNoteMailData = {
  creditNoteId: '5d1c0a3e-0000-4000-8000-000000000007',
  creditNoteNumber: 'CN/26-27/000007',
  invoiceNumber: 'INV/26-27/000042',
  orderId: '0b6f7a1e-0000-4000-8000-000000000001',
  planName: 'Professional',
  totalPaise: 1_000_00,
  issuedAt: '2026-07-01T19:00:00.000Z', // 00:30 on 2 July in India
  companyName: 'Acme Traders Pvt Ltd',
};
const PDF = Buffer.from('%PDF-1.7 the credit note');
const WHAT = '₹1,000.00 of your payment for the Professional plan (order #0B6F7A) was refunded.';
const ATTACHED =
  'Your GST credit note CN/26-27/000007, against invoice INV/26-27/000042, is attached as a PDF.';

let dir: string;
let mailer: Mailer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'credit-note-mail-'));
  mailer = createOutboxMailer(dir, 'Connected Banking Portal <no-reply@portal.example.in>');
});
afterAll(async () => {
  mailer.close();
  await rm(dir, { recursive: true, force: true });
});

/** The mail, sent through the real outbox and read back as a mail client would. */
async function delivered(): Promise<ReadMail> {
  const mail = await creditNoteMail(data, PDF, ctx);
  await mailer.send({ to: 'customer@example.test', ...mail });
  return (await readOutbox(dir)).at(-1)!;
}

const count = (html: string, text: string) => html.split(text).length - 1;

describe('the mail of a credit note', () => {
  it('says what was refunded, the note’s date, number, invoice and amount, and where the invoices are', async () => {
    const mail = await delivered();
    expect(mail.subject).toBe('Your credit note CN/26-27/000007');
    expect(mail.text.trim()).toBe(
      [
        WHAT,
        ATTACHED,
        '',
        'Date: 02/07/2026',
        'Credit note: CN/26-27/000007',
        'Invoice: INV/26-27/000042',
        'Amount: ₹1,000.00',
        '',
        `Your invoices and credit notes: ${LIST}`,
      ].join('\n'),
    );
  });

  it('shows the same in HTML, with each fact labelled, and a button to the invoices', async () => {
    const { html } = await delivered();
    expect(html).toMatch(/>\s*Refund credited\s*</);
    expect(html).toContain('Dear Acme Traders Pvt Ltd,');
    // the preview a mail client shows beside the subject, then the two paragraphs
    expect(count(html, `${WHAT} ${ATTACHED}`)).toBe(1);
    expect(count(html, WHAT)).toBe(2);
    expect(count(html, ATTACHED)).toBe(2);
    const facts = [...html.matchAll(/<tr><td[^>]*>([^<]*)<\/td><td[^>]*>([^<]*)<\/td><\/tr>/g)];
    expect(facts.map(([, label, value]) => [label, value])).toEqual([
      ['Date', '02/07/2026'],
      ['Order', '#0B6F7A'],
      ['Credit note', 'CN/26-27/000007'],
      ['Invoice', 'INV/26-27/000042'],
      ['Amount', '₹1,000.00'],
    ]);
    expect(html).toMatch(/>\s*See your invoices\s*</);
    expect(linksOf(html).filter((link) => link === LIST)).toHaveLength(2);
  });

  it('attaches the note as a PDF named by its number', async () => {
    const rendered = await creditNoteMail(data, PDF, ctx);
    // declared, not left to the mailer to guess from the file name
    expect(rendered.attachments).toEqual([
      { filename: 'CreditNote-CN-26-27-000007.pdf', content: PDF, contentType: 'application/pdf' },
    ]);
    const [attached, ...more] = (await delivered()).attachments;
    expect(more).toEqual([]);
    expect(attached!.filename).toBe('CreditNote-CN-26-27-000007.pdf');
    expect(attached!.contentType).toBe('application/pdf');
    expect(attached!.content.equals(PDF)).toBe(true);
  });

  it('names the file with one hyphen for each run of characters a file name cannot hold', () => {
    expect(creditNoteFileName('CN / 26-27 // 000007')).toBe('CreditNote-CN-26-27-000007.pdf');
  });
});
