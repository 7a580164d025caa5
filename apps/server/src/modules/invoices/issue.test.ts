import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { KARNATAKA, MAHARASHTRA, saveBilling } from '../../test/billing';
import { buyer } from '../../test/payments';
import { documentPdf } from './reads';
import { creditNotesOf, paidOrder, payFor, pdfLines, reportRefund } from '../../test/invoices';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the invoice issued when a payment settles', () => {
  it('names the payment, the plan and its period, the recipient and the place of supply', async () => {
    t.clock.set(new Date('2026-10-05T06:00:00Z'));
    const { b, invoice, paymentId, order } = await paidOrder(t);
    const lines = await pdfLines((await documentPdf(t.deps.files, invoice))!);
    expect(lines).toContain(`Invoice No: ${invoice.invoiceNumber}`);
    expect(lines).toContain('Invoice Date: 05/10/2026');
    expect(lines).toContain(`Order ID: ${order.id}`);
    expect(lines).toContain(`Payment ID: ${paymentId}`);
    expect(lines).toContain('Reverse charge: No');
    expect(lines).toContain(b.customer.companyName);
    expect(lines).toContain(`GSTIN: ${b.customer.gstNo}`);
    expect(lines).toContain(`E-mail: ${b.customer.email}`);
    // an order placed before the customer gave a billing address
    expect(lines).toContain('Address: As registered under the GSTIN above');
    expect(lines).toContain(`Place of Supply: Maharashtra (${invoice.placeOfSupply})`);
    expect(lines).toContain('Professional plan (Single, 1 Company, 365 days) ₹4,999.00');
    expect(lines).toContain('Service period: 05/10/2026 to 05/10/2027');
    expect(lines).toContain('Total ₹6,148.77');
    // the row keeps what the PDF states
    expect(invoice).toMatchObject({
      customerId: b.customer.id,
      customerGstin: b.customer.gstNo,
      placeOfSupply: '27',
      taxablePaise: 5_210_82,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 937_95,
      untaxedPaise: 0,
      totalPaise: 6_148_77,
      status: 'Issued',
      creditedPaise: 0,
      issuedAt: new Date('2026-10-05T06:00:00Z'),
    });
    const mail = await t.latestMail();
    expect(mail.subject).toBe(`Your invoice ${invoice.invoiceNumber}`);
    expect(mail.attachments[0]!.content.equals((await documentPdf(t.deps.files, invoice))!)).toBe(
      true,
    );
  });

  it('bills the address and GSTIN the order kept, and splits the tax by its place of supply', async () => {
    const b = await buyer(t);
    expect((await saveBilling(t, b.headers, MAHARASHTRA)).statusCode).toBe(200);
    const between = await payFor(t, b);
    const inter = await pdfLines((await documentPdf(t.deps.files, between.invoice))!);
    expect(inter).toContain('Address: Office 4, Baner Road, Pune 411045, Maharashtra');
    expect(inter).toContain('Place of Supply: Maharashtra (27)');
    expect(inter).toContain('IGST @ 18% ₹937.95');

    // the seller is in Karnataka (29): a supply there pays CGST and SGST
    expect((await saveBilling(t, b.headers, KARNATAKA)).statusCode).toBe(200);
    const within = await payFor(t, b);
    const intra = await pdfLines((await documentPdf(t.deps.files, within.invoice))!);
    expect(intra).toContain(`GSTIN: ${KARNATAKA.gstin}`);
    expect(intra).toContain(
      'Address: 12, 2nd Cross, Indiranagar, HAL 2nd Stage, Bengaluru 560038, Karnataka',
    );
    expect(intra).toContain('Place of Supply: Karnataka (29)');
    expect(intra).toContain('CGST @ 9% ₹468.98');
    expect(intra).toContain('SGST @ 9% ₹468.97');
    expect(within.invoice).toMatchObject({
      customerGstin: KARNATAKA.gstin,
      placeOfSupply: '29',
      cgstPaise: 468_98,
      sgstPaise: 468_97,
      igstPaise: 0,
    });
    // the earlier invoice keeps what its order kept
    const again = await pdfLines((await documentPdf(t.deps.files, between.invoice))!);
    expect(again).toContain('Place of Supply: Maharashtra (27)');
  });

  it("splits the tax by the place of supply, not the GSTIN's State, when the GST number is no valid GSTIN", async () => {
    // no address on record and a GST number of Maharashtra (27) that fails its check: the place
    // of supply is the seller's own State, Karnataka (29), so the supply pays CGST and SGST
    const { invoice, paymentId } = await paidOrder(t, { gstNo: '27AAPFU0939F1ZW' });
    expect(invoice).toMatchObject({
      customerGstin: '27AAPFU0939F1ZW',
      placeOfSupply: '29',
      taxablePaise: 5_210_82,
      cgstPaise: 468_98,
      sgstPaise: 468_97,
      igstPaise: 0,
      untaxedPaise: 0,
      totalPaise: 6_148_77,
    });
    const lines = await pdfLines((await documentPdf(t.deps.files, invoice))!);
    expect(lines).toContain('GSTIN: 27AAPFU0939F1ZW');
    expect(lines).toContain('Place of Supply: Karnataka (29)');
    expect(lines).toContain('CGST @ 9% ₹468.98');
    expect(lines).toContain('SGST @ 9% ₹468.97');
    expect(lines.join(' ')).not.toContain('IGST');

    // its credit note splits the same way
    await reportRefund(t, paymentId, {
      id: 'rfnd_POS',
      amountPaise: invoice.totalPaise,
      refundedSoFarPaise: invoice.totalPaise,
    });
    await t.drawDocuments();
    const [note] = await creditNotesOf(t, invoice.id);
    expect(note).toMatchObject({ cgstPaise: 468_98, sgstPaise: 468_97, igstPaise: 0 });
    const noteLines = await pdfLines((await documentPdf(t.deps.files, note!))!);
    expect(noteLines).toContain('Place of Supply: Karnataka (29)');
    expect(noteLines).toContain('CGST @ 9% ₹468.98');
    expect(noteLines).toContain('SGST @ 9% ₹468.97');
    expect(noteLines.join(' ')).not.toContain('IGST');
  });

  it("places such a supply in the seller's State that the configured GSTIN names (27)", async () => {
    const other = await createTestApp({ env: { INVOICE_SUPPLIER_GSTIN: '27AAACR5055K1Z7' } });
    try {
      // a GST number of Karnataka (29) that fails its check: the place of supply is Maharashtra
      const { invoice } = await paidOrder(other, { gstNo: '29AAACR5055K1Z4' });
      expect(invoice).toMatchObject({
        customerGstin: '29AAACR5055K1Z4',
        placeOfSupply: '27',
        taxablePaise: 5_210_82,
        cgstPaise: 468_98,
        sgstPaise: 468_97,
        igstPaise: 0,
        totalPaise: 6_148_77,
      });
      const lines = await pdfLines((await documentPdf(other.deps.files, invoice))!);
      expect(lines).toContain('GSTIN: 27AAACR5055K1Z7');
      expect(lines).toContain('State: Maharashtra (27)');
      expect(lines).toContain('GSTIN: 29AAACR5055K1Z4');
      expect(lines).toContain('Place of Supply: Maharashtra (27)');
      expect(lines).toContain('CGST @ 9% ₹468.98');
      expect(lines).toContain('SGST @ 9% ₹468.97');
      expect(lines.join(' ')).not.toContain('IGST');
    } finally {
      await other.close();
    }
  });
});
