import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { documentPdf } from './reads';
import { paidOrder, pdfLines } from './test-support';

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
});
