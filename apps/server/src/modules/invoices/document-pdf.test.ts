import { describe, expect, it } from 'vitest';
import { orderAmount } from '@portal/contract';
import { creditAmounts, invoiceAmounts } from './amounts';
import { creditNoteContent, invoiceContent, type InvoiceData, type Recipient } from './content';
import { renderDocumentPdf } from './document-pdf';
import { pdfLines, poppler } from '../../test/invoices';

const order = orderAmount(4_999_00);
const supplier = {
  name: 'Ledgerline Software Services Pvt Ltd',
  address: '4th Floor, Prestige Tech Park, Outer Ring Road, Bengaluru, Karnataka 560103',
  gstin: '29AAGCL1234M1Z5',
};
const recipient: Recipient = {
  companyName: 'Acme Traders Pvt Ltd',
  gstin: '27AAPFU0939F1ZV',
  address: '12 MG Road, Pune, Maharashtra 411001',
  email: 'demo@acme.example',
  placeOfSupply: '27',
};
const invoice: InvoiceData = {
  invoiceNumber: 'INV/26-27/000042',
  invoiceDate: new Date('2026-06-01T10:00:00Z'),
  orderId: '0b6f7a1e-0000-4000-8000-000000000001',
  paymentId: 'pay_ABC123',
  supplier,
  recipient,
  sacCode: '997331',
  plan: { name: 'Professional', type: 'Single', durationDays: 365, companies: 1 },
  period: { start: new Date('2026-06-01T10:00:00Z'), end: new Date('2027-06-01T10:00:00Z') },
  basePaise: order.basePaise,
  handlingPaise: order.handlingPaise,
  amounts: invoiceAmounts(order, false),
};

describe('the tax invoice PDF', () => {
  it('says, in this order, what Rule 46 asks of an invoice between two states (IGST)', async () => {
    expect(await pdfLines(await renderDocumentPdf(invoiceContent(invoice)))).toEqual([
      'TAX INVOICE',
      'Ledgerline Software Services Pvt Ltd',
      '4th Floor, Prestige Tech Park, Outer Ring Road, Bengaluru, Karnataka 560103',
      'GSTIN: 29AAGCL1234M1Z5',
      'State: Karnataka (29)',
      'Invoice No: INV/26-27/000042',
      'Invoice Date: 01/06/2026',
      'Order ID: 0b6f7a1e-0000-4000-8000-000000000001',
      'Payment ID: pay_ABC123',
      'Reverse charge: No',
      'Billed To',
      'Acme Traders Pvt Ltd',
      'GSTIN: 27AAPFU0939F1ZV',
      'Address: 12 MG Road, Pune, Maharashtra 411001',
      'E-mail: demo@acme.example',
      'Place of Supply: Maharashtra (27)',
      'Description Amount',
      'Professional plan (Single, 1 Company, 365 days) ₹4,999.00',
      'Internet Handling Charges @ 5% (₹249.95 including GST) ₹211.82',
      'Service period: 01/06/2026 to 01/06/2027',
      'SAC: 997331',
      'Taxable value ₹5,210.82',
      'IGST @ 18% ₹937.95',
      'Total ₹6,148.77',
      'Amount in words: Rupees Six Thousand One Hundred Forty-Eight and Seventy-Seven Paise Only',
    ]);
  });

  it('splits the tax into CGST and SGST within one state', async () => {
    const lines = await pdfLines(
      await renderDocumentPdf(
        invoiceContent({
          ...invoice,
          recipient: { ...recipient, gstin: '29ABCDE1234F1Z5', placeOfSupply: '29' },
          amounts: invoiceAmounts(order, true),
        }),
      ),
    );
    expect(lines).toContain('CGST @ 9% ₹468.98');
    expect(lines).toContain('SGST @ 9% ₹468.97');
    expect(lines).toContain('Place of Supply: Karnataka (29)');
    expect(lines.join(' ')).not.toContain('IGST');
  });

  it('counts several companies, and has no Payment ID line when the gateway named none', async () => {
    const lines = await pdfLines(
      await renderDocumentPdf(
        invoiceContent({ ...invoice, paymentId: null, plan: { ...invoice.plan, companies: 3 } }),
      ),
    );
    expect(lines).toContain('Professional plan (Single, 3 Companies, 365 days) ₹4,999.00');
    const block = lines.slice(
      lines.indexOf('Invoice No: INV/26-27/000042'),
      lines.indexOf('Billed To'),
    );
    expect(block).toEqual([
      'Invoice No: INV/26-27/000042',
      'Invoice Date: 01/06/2026',
      'Order ID: 0b6f7a1e-0000-4000-8000-000000000001',
      'Reverse charge: No',
    ]);
  });

  it('names a state code it does not know as such, never as another state', async () => {
    const lines = await pdfLines(
      await renderDocumentPdf(
        invoiceContent({ ...invoice, recipient: { ...recipient, placeOfSupply: '99' } }),
      ),
    );
    expect(lines).toContain('Place of Supply: Unknown state (99)');
  });

  it('is tagged, titled and in English, with every font embedded', async () => {
    const pdf = await renderDocumentPdf(invoiceContent(invoice));
    const info = await poppler('pdfinfo', pdf);
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toMatch(/^Title:\s+Tax Invoice INV\/26-27\/000042$/m);
    expect(info).toMatch(/^Author:\s+Ledgerline Software Services Pvt Ltd$/m);
    // the catalogue is not compressed: the language and the title shown in the title bar
    expect(pdf.toString('latin1')).toContain('/Lang (en-IN)');
    expect(pdf.toString('latin1')).toContain('/DisplayDocTitle true');
    const fonts = (await poppler('pdffonts', pdf)).trim().split('\n').slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) {
      // name, type, encoding, then emb, sub, uni: each font embedded (as a subset)
      expect(font.split(/\s+/).slice(-5, -2)).toEqual(['yes', 'yes', 'yes']);
    }
  });

  it('tags its parts: a heading, sections, and a table of amounts whose cells hold them', async () => {
    const tree = await poppler(
      'pdfinfo',
      await renderDocumentPdf(invoiceContent(invoice)),
      '-struct-text',
    );
    const lines = tree.split('\n').map((l) => l.trim());
    expect(lines.slice(0, 3)).toEqual(['Document', 'H1 (block)', '"TAX INVOICE"']);
    expect(lines.filter((l) => l === 'Sect')).toHaveLength(3);
    expect(lines).toContain('"Reverse charge: No"');
    const table = lines.indexOf('Table (block)');
    expect(lines.slice(table + 1, table + 7)).toEqual([
      'TR',
      'TH',
      '"Description"',
      'TH',
      '"Amount"',
      'TR',
    ]);
    expect(lines).toContain('"IGST @ 18%"');
    expect(lines).toContain('"₹937.95"');
  });
});

describe('the credit note PDF', () => {
  it('refers to its invoice and credits the refund with its share of the tax (Rule 53)', async () => {
    const pdf = await renderDocumentPdf(
      creditNoteContent({
        creditNoteNumber: 'CN/26-27/000007',
        creditNoteDate: new Date('2026-07-01T10:00:00Z'),
        invoice: { number: invoice.invoiceNumber, date: invoice.invoiceDate },
        orderId: invoice.orderId,
        refundId: 'rfnd_XYZ',
        planName: 'Professional',
        supplier,
        recipient,
        sacCode: '997331',
        amounts: creditAmounts(invoice.amounts, 0, 1_000_00),
      }),
    );
    expect(await pdfLines(pdf)).toEqual([
      'CREDIT NOTE',
      'Ledgerline Software Services Pvt Ltd',
      '4th Floor, Prestige Tech Park, Outer Ring Road, Bengaluru, Karnataka 560103',
      'GSTIN: 29AAGCL1234M1Z5',
      'State: Karnataka (29)',
      'Credit Note No: CN/26-27/000007',
      'Credit Note Date: 01/07/2026',
      'Against Invoice No: INV/26-27/000042 dated 01/06/2026',
      'Order ID: 0b6f7a1e-0000-4000-8000-000000000001',
      'Refund ID: rfnd_XYZ',
      'Reason: Refund of the payment',
      'Reverse charge: No',
      'Billed To',
      'Acme Traders Pvt Ltd',
      'GSTIN: 27AAPFU0939F1ZV',
      'Address: 12 MG Road, Pune, Maharashtra 411001',
      'E-mail: demo@acme.example',
      'Place of Supply: Maharashtra (27)',
      'Description Amount',
      'Refund for the Professional plan',
      'SAC: 997331',
      'Taxable value ₹847.46',
      'IGST @ 18% ₹152.54',
      'Total credit ₹1,000.00',
      'Amount in words: Rupees One Thousand Only',
    ]);
    const info = await poppler('pdfinfo', pdf);
    expect(info).toMatch(/^Tagged:\s+yes$/m);
    expect(info).toMatch(/^Title:\s+Credit Note CN\/26-27\/000007$/m);
  });

  it('shows the untaxed handling charge of an invoice issued before decision 038', async () => {
    const legacy = {
      taxablePaise: 1_000_00,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 180_00,
      untaxedPaise: 50_00,
      totalPaise: 1_230_00,
    };
    const pdf = await renderDocumentPdf(
      creditNoteContent({
        creditNoteNumber: 'CN/26-27/000008',
        creditNoteDate: new Date('2026-07-01T10:00:00Z'),
        invoice: { number: 'INV/2026-27/000001', date: invoice.invoiceDate },
        orderId: invoice.orderId,
        refundId: 'rfnd_OLD',
        planName: 'Professional',
        supplier,
        recipient,
        sacCode: '997331',
        amounts: creditAmounts(legacy, 0, 1_230_00),
      }),
    );
    const lines = await pdfLines(pdf);
    expect(lines).toContain('Internet Handling Charges (outside the taxable value) ₹50.00');
    expect(lines).toContain('Taxable value ₹1,000.00');
  });
});
