import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderAmount } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { buyer } from '../payments/test-support';
import { numberInWords, rupeesInWords } from './amount-in-words';
import { financialYearOf, splitGst } from './gst';
import { renderInvoicePdf, type InvoiceData } from './invoice-pdf';
import { receipts } from './schema';

const standardFontDataUrl = `${path.join(
  path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')),
  'standard_fonts',
)}/`;

/** The text of every page (lines joined by spaces), and the title and author it declares. */
async function readPdf(data: Buffer) {
  const doc = await getDocument({ data: new Uint8Array(data), standardFontDataUrl }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  const { info } = (await doc.getMetadata()) as { info: { Title?: string; Author?: string } };
  await doc.destroy();
  return {
    text: pages.join('\n').replace(/\s+/g, ' ').trim(),
    title: info.Title,
    author: info.Author,
  };
}

const pdfText = async (data: Buffer) => (await readPdf(data)).text;

const amounts = orderAmount(4_999_00);
const base: InvoiceData = {
  invoiceNumber: 'INV/2026-27/000042',
  invoiceDate: new Date('2026-06-01T10:00:00Z'),
  orderId: '0b6f7a1e-0000-4000-8000-000000000001',
  paymentId: 'pay_ABC123',
  supplier: {
    name: 'Ledgerline Software Services Pvt Ltd',
    address: 'Bengaluru, Karnataka',
    gstin: '29AAGCL1234M1Z5',
  },
  customer: {
    companyName: 'Acme Traders Pvt Ltd',
    gstin: '27AAPFU0939F1ZV',
    address: 'Pune',
    email: 'demo@acme.example',
  },
  sacCode: '997331',
  plan: { name: 'Professional', type: 'Single', durationDays: 365, companies: 1 },
  period: { start: new Date('2026-06-01T10:00:00Z'), end: new Date('2027-06-01T10:00:00Z') },
  ...amounts,
};

describe('the GST tax invoice PDF', () => {
  it('says, in this order, what Rule 46 asks of a tax invoice between two states (IGST)', async () => {
    const pdf = await readPdf(await renderInvoicePdf(base));
    expect(pdf.text).toBe(
      [
        'TAX INVOICE',
        'Ledgerline Software Services Pvt Ltd',
        'Bengaluru, Karnataka',
        'GSTIN: 29AAGCL1234M1Z5',
        'State: Karnataka (29)',
        'Invoice No: INV/2026-27/000042',
        'Invoice Date: 01/06/2026',
        'Order ID: 0b6f7a1e-0000-4000-8000-000000000001',
        'Payment ID: pay_ABC123',
        'Billed To',
        'Acme Traders Pvt Ltd',
        'GSTIN: 27AAPFU0939F1ZV',
        'Address: Pune',
        'E-mail: demo@acme.example',
        'Place of Supply: Maharashtra (27)',
        'Description Amount',
        'Professional plan (Single, 1 Company, 365 days) INR 4,999.00',
        'Service period: 01/06/2026 to 01/06/2027',
        'SAC: 997331',
        'Taxable value INR 4,999.00',
        'IGST @ 18% INR 899.82',
        'Internet Handling Charges @ 5% INR 249.95',
        'Total INR 6,148.77',
        'Amount in words: Rupees Six Thousand One Hundred Forty-Eight and Seventy-Seven Paise Only',
        'This invoice is valid without a signature.',
      ].join(' '),
    );
    // what a PDF viewer shows in its title bar
    expect(pdf.title).toBe('Tax Invoice INV/2026-27/000042');
    expect(pdf.author).toBe('Ledgerline Software Services Pvt Ltd');
  });

  it('splits GST into CGST and SGST within one state', async () => {
    const text = await pdfText(
      await renderInvoicePdf({ ...base, customer: { ...base.customer, gstin: '29ABCDE1234F1Z5' } }),
    );
    expect(text).toContain(
      'Taxable value INR 4,999.00 CGST @ 9% INR 449.91 SGST @ 9% INR 449.91 Internet Handling',
    );
    expect(text).toContain('Place of Supply: Karnataka (29)');
    expect(text).not.toContain('IGST');
  });

  it('counts several companies in the plan line, and has no Payment ID line when the gateway named none', async () => {
    const text = await pdfText(
      await renderInvoicePdf({ ...base, paymentId: null, plan: { ...base.plan, companies: 3 } }),
    );
    expect(text).toContain('Professional plan (Single, 3 Companies, 365 days) INR 4,999.00');
    expect(text).toContain('Order ID: 0b6f7a1e-0000-4000-8000-000000000001 Billed To');
    expect(text).not.toContain('Payment ID');
  });

  it('names a state code it does not know as such, never as another state', async () => {
    const text = await pdfText(
      await renderInvoicePdf({ ...base, customer: { ...base.customer, gstin: '99ABCDE1234F1Z5' } }),
    );
    expect(text).toContain('Place of Supply: Unknown state (99)');
  });
});

describe('GST rules', () => {
  it('splits odd paise so that the halves add up', () => {
    expect(splitGst(101, '27A', '27B')).toEqual({
      kind: 'CGST+SGST',
      cgstPaise: 51,
      sgstPaise: 50,
      igstPaise: 0,
    });
    expect(splitGst(101, '29A', '27B')).toEqual({
      kind: 'IGST',
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 101,
    });
  });

  it('counts financial years from 1 April in IST', () => {
    expect(financialYearOf(new Date('2026-03-31T18:29:59Z'))).toBe('2025-26');
    expect(financialYearOf(new Date('2026-03-31T18:30:00Z'))).toBe('2026-27');
    expect(financialYearOf(new Date('2099-12-31T00:00:00Z'))).toBe('2099-00');
  });
});

describe('amounts in words', () => {
  it('uses Indian numbering', () => {
    expect(numberInWords(0)).toBe('Zero');
    expect(numberInWords(15)).toBe('Fifteen');
    expect(numberInWords(1_00_000)).toBe('One Lakh');
    expect(numberInWords(12_34_56_789)).toBe(
      'Twelve Crore Thirty-Four Lakh Fifty-Six Thousand Seven Hundred Eighty-Nine',
    );
    expect(numberInWords(1_00_00_00_000)).toBe('One Hundred Crore');
    expect(rupeesInWords(1_23_000_00)).toBe('Rupees One Lakh Twenty-Three Thousand Only');
    expect(rupeesInWords(5)).toBe('Rupees Zero and Five Paise Only');
  });

  it('names round tens and the numbers just past them', () => {
    expect(numberInWords(19)).toBe('Nineteen');
    expect(numberInWords(20)).toBe('Twenty');
    expect(numberInWords(21)).toBe('Twenty-One');
    expect(numberInWords(90)).toBe('Ninety');
    expect(numberInWords(120)).toBe('One Hundred Twenty');
    expect(numberInWords(20_000)).toBe('Twenty Thousand');
    expect(numberInWords(20_00_000)).toBe('Twenty Lakh');
    expect(rupeesInWords(7_020_40)).toBe('Rupees Seven Thousand Twenty and Forty Paise Only');
  });

  it('refuses negative and fractional numbers rather than print wrong words', () => {
    const refusal = new RangeError('a non-negative whole number');
    expect(() => numberInWords(-1)).toThrow(refusal);
    expect(() => numberInWords(1.5)).toThrow(refusal);
    expect(() => numberInWords(Number.MAX_SAFE_INTEGER + 1)).toThrow(refusal);
  });
});

describe('invoice numbering', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function buy() {
    const b = await buyer(t);
    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    await b.checkout(checkoutPath, 'pay');
    const [row] = await t.deps.db.select().from(receipts).where(eq(receipts.orderId, orderId));
    return {
      b,
      orderId,
      invoiceNumber: row!.invoiceNumber,
      url: (await b.history())[0]!.receiptUrl!,
    };
  }

  it('runs 1, 2, 3 within a financial year and starts again in the next', async () => {
    t.clock.set(new Date('2027-03-31T12:00:00Z'));
    expect((await buy()).invoiceNumber).toBe('INV/2026-27/000001');
    expect((await buy()).invoiceNumber).toBe('INV/2026-27/000002');
    t.clock.set(new Date('2027-04-01T06:00:00Z'));
    expect((await buy()).invoiceNumber).toBe('INV/2027-28/000001');
  });

  it("prints the buyer's company and GSTIN in the receipt served by the link", async () => {
    t.clock.set(new Date('2027-05-01T06:00:00Z'));
    const { b, url, invoiceNumber } = await buy();
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.headers['content-disposition']).toContain(
      `${invoiceNumber.replaceAll('/', '-')}.pdf`,
    );
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(b.customer.companyName);
    expect(text).toContain(`GSTIN: ${b.customer.gstNo}`);
    // the account holds no postal address: the GSTIN's registration stands for it
    expect(text).toContain('Address: As registered under the GSTIN above');
    expect(text).toContain(`Invoice No: ${invoiceNumber}`);
  });
});
