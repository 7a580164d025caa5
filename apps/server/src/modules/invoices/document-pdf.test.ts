import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { orderAmount } from '@portal/contract';
import { creditAmounts, invoiceAmounts } from './amounts';
import { creditNoteContent, invoiceContent, type InvoiceData, type Recipient } from './content';
import { renderDocumentPdf, type DocumentRegistration } from './document-pdf';
import { pdfLines, poppler } from '../../test/invoices';

const run = promisify(execFile);

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

/** A credit note of ₹1,000 refunded on the invoice above. */
const creditNote = () =>
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
  });

describe('the credit note PDF', () => {
  it('refers to its invoice and credits the refund with its share of the tax (Rule 53)', async () => {
    const pdf = await renderDocumentPdf(creditNote());
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

const jwsPart = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const IRN = '1323ce153b411859b7dcdeefcf0d11272f71b59837d8911a4e0134be3954a480';
// as long as the IRP's: a JWT of the document's fields and a 2048-bit RS256 signature
const registration: DocumentRegistration = {
  irn: IRN,
  ackNo: '112610012345678',
  // 02/06/2026 in India, still 01/06/2026 in UTC
  ackDate: new Date('2026-06-01T18:45:00Z'),
  signedQrCode: [
    jwsPart({ alg: 'RS256', kid: '0B3F9A8E0C1F0E3C2A9B0F3E6D7C5B4A3F2E1D0C', typ: 'JWT' }),
    jwsPart({
      data: JSON.stringify({
        SellerGstin: supplier.gstin,
        BuyerGstin: recipient.gstin,
        DocNo: invoice.invoiceNumber,
        DocTyp: 'INV',
        DocDt: '01/06/2026',
        TotInvVal: 6148.77,
        ItemCnt: 2,
        MainHsnCode: '997331',
        Irn: IRN,
        IrnDt: '2026-06-02 00:15:00',
      }),
      iss: 'NIC',
    }),
    Buffer.concat(
      [0, 1, 2, 3].map((i) => createHash('sha512').update(`signature ${i}`).digest()),
    ).toString('base64url'),
  ].join('.'),
};

/** Points to pixels in the page images below: 4 pixels a point. */
const DPI = 288;

/** The page as Poppler's pdftoppm draws it in grey at DPI (a PGM): which pixels are dark. */
async function pageImage(pdf: Buffer) {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdftoppm-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await writeFile(file, pdf);
    const { stdout: pgm } = await run(
      'pdftoppm',
      ['-r', String(DPI), '-gray', '-singlefile', file],
      { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
    );
    const [header, width] = /^P5\n(\d+) (\d+)\n255\n/.exec(pgm.toString('latin1', 0, 32))!;
    return {
      dark: (x: number, y: number) =>
        pgm[header.length + Math.round(y) * Number(width) + Math.round(x)]! < 128,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Where a line of text starts on the page, in points, as Poppler's pdftotext places it. */
async function textTop(pdf: Buffer, word: string) {
  const html = await poppler('pdftotext', pdf, '-bbox');
  const [, yMin] = new RegExp(`<word xMin="[\\d.]+" yMin="([\\d.]+)"[^>]*>${word}</word>`).exec(
    html,
  )!;
  return Number(yMin);
}

/** The modules of `qrcode`'s QR code of text and its one-module margin: '#' dark, a row a line. */
function qrRows(text: string) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const inside = (i: number) => i >= 0 && i < modules.size;
  return Array.from({ length: modules.size + 2 }, (_, row) =>
    Array.from({ length: modules.size + 2 }, (_, col) =>
      inside(row - 1) && inside(col - 1) && modules.get(row - 1, col - 1) ? '#' : '.',
    ).join(''),
  );
}

/**
 * The modules a page shows in a square of `points` at (x, y) points, read at the centre of each
 * of `size` modules a side, as qrRows writes them.
 */
function modulesAt(
  page: Awaited<ReturnType<typeof pageImage>>,
  square: { x: number; y: number; points: number },
  size: number,
) {
  const pixels = DPI / 72;
  const centre = (start: number, i: number) =>
    (start + ((i + 0.5) * square.points) / size) * pixels;
  return Array.from({ length: size }, (_, row) =>
    Array.from({ length: size }, (_, col) =>
      page.dark(centre(square.x, col), centre(square.y, row)) ? '#' : '.',
    ).join(''),
  );
}

describe('a document registered with the IRP', () => {
  it('prints its IRN whole, its Ack No and its Ack Date below its number, and nothing else new', async () => {
    const plain = await pdfLines(await renderDocumentPdf(invoiceContent(invoice)));
    const lines = await pdfLines(
      await renderDocumentPdf(invoiceContent(invoice), undefined, registration),
    );
    const added = ['e-Invoice', `IRN: ${IRN}`, 'Ack No: 112610012345678', 'Ack Date: 02/06/2026'];
    expect(
      lines.slice(lines.indexOf('Reverse charge: No') + 1, lines.indexOf('Billed To')),
    ).toEqual(added);
    expect(lines.filter((line) => !added.includes(line))).toEqual(plain);
  });

  it('draws the QR code of the signed QR, 130 pt square at the right of its heading, as no image', async () => {
    const pdf = await renderDocumentPdf(invoiceContent(invoice), undefined, registration);
    // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
    expect((await poppler('pdfimages', pdf, '-list')).trim().split('\n').slice(2)).toEqual([]);

    const page = await pageImage(pdf);
    // the QR code's top is its heading's line's, which Poppler places a fraction of a point
    // lower, at the top of the letters: A4 is 595.28 pt wide, the right margin 50 pt
    const square = {
      x: 595.28 - 50 - 130,
      y: (await textTop(pdf, 'e-Invoice')) - 0.25,
      points: 130,
    };
    const expected = qrRows(registration.signedQrCode);
    const found = modulesAt(page, square, expected.length);
    expect(found).toEqual(expected);
    // a comparison that tells texts apart: a character changed changes the modules
    const other = qrRows(registration.signedQrCode.replace('.', '_'));
    expect(other).toHaveLength(expected.length);
    expect(found).not.toEqual(other);
  });

  it('tags the registration as a section, its QR code as a figure described in words', async () => {
    const pdf = await renderDocumentPdf(invoiceContent(invoice), undefined, registration);
    const tree = (await poppler('pdfinfo', pdf, '-struct-text')).split('\n').map((l) => l.trim());
    const heading = tree.indexOf('"e-Invoice"');
    expect(tree.slice(heading - 2, heading + 10)).toEqual([
      'Sect',
      'H2 (block)',
      '"e-Invoice"',
      'P (block)',
      `"IRN: ${IRN}"`,
      'P (block)',
      '"Ack No: 112610012345678"',
      'P (block)',
      '"Ack Date: 02/06/2026"',
      'Figure',
      '""',
      'Sect',
    ]);
    expect(pdf.toString('latin1')).toContain(
      '/S /Figure\n/Alt (QR code of the e-invoice, signed by the IRP)\n',
    );
  });

  it('prints it on a credit note too, which stays one page', async () => {
    const pdf = await renderDocumentPdf(creditNote(), undefined, registration);
    const lines = await pdfLines(pdf);
    expect(
      lines.slice(lines.indexOf('Reverse charge: No') + 1, lines.indexOf('Billed To')),
    ).toEqual(['e-Invoice', `IRN: ${IRN}`, 'Ack No: 112610012345678', 'Ack Date: 02/06/2026']);
    expect(await poppler('pdfinfo', pdf)).toMatch(/^Pages:\s+1$/m);
  });
});
