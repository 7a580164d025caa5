import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { orders } from '../orders/schema';
import { refundEvent, sendWebhook } from '../payments/test-support';
import { documentPdf, invoicesInRange } from './reads';
import { creditNotes, invoices } from './schema';
import { paidOrder, pdfLines, reportRefund } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const notesOf = (invoiceId: string) =>
  t.deps.db
    .select()
    .from(creditNotes)
    .where(eq(creditNotes.invoiceId, invoiceId))
    .orderBy(asc(creditNotes.creditNoteNumber));

const invoiceRow = async (id: string) =>
  (await t.deps.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;

const amountsOf = (row: {
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  untaxedPaise: number;
  totalPaise: number;
}) => [
  row.taxablePaise,
  row.cgstPaise,
  row.sgstPaise,
  row.igstPaise,
  row.untaxedPaise,
  row.totalPaise,
];

describe('a refund reported by the gateway (POST /api/payments/webhook)', () => {
  it('issues a credit note for a partial refund and one for the rest, which add up to the invoice', async () => {
    t.clock.set(new Date('2026-07-01T06:00:00Z'));
    const { invoice, paymentId, order } = await paidOrder(t);
    const part = 1_000_00;

    t.clock.set(new Date('2026-07-02T06:00:00Z'));
    const first = await reportRefund(t, paymentId, {
      id: 'rfnd_A',
      amountPaise: part,
      refundedSoFarPaise: part,
    });
    expect(first.json().message).toBe('unchanged');
    const [note] = await notesOf(invoice.id);
    expect(note).toMatchObject({
      creditNoteNumber: 'CN/26-27/000001',
      refundId: 'rfnd_A',
      customerId: order.customerId,
      issuedAt: new Date('2026-07-02T06:00:00Z'),
      creditedThroughPaise: part,
      totalPaise: part,
    });
    // the note takes the invoice's tax in proportion: 18 % of its taxable value, to the paisa
    expect(note!.taxablePaise + note!.igstPaise + note!.cgstPaise + note!.sgstPaise).toBe(part);
    expect(
      Math.abs(note!.taxablePaise * 0.18 - (note!.igstPaise + note!.cgstPaise + note!.sgstPaise)),
    ).toBeLessThan(1);
    expect(await invoiceRow(invoice.id)).toMatchObject({
      creditedPaise: part,
      status: 'Partly refunded',
    });
    const [stillPaid] = await t.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(stillPaid!.status).toBe('Completed');

    const rest = invoice.totalPaise - part;
    const second = await reportRefund(t, paymentId, {
      id: 'rfnd_B',
      amountPaise: rest,
      refundedSoFarPaise: invoice.totalPaise,
    });
    expect(second.json().message).toBe('applied');
    const notes = await notesOf(invoice.id);
    expect(notes.map((n) => [n.creditNoteNumber, n.refundId, n.totalPaise])).toEqual([
      ['CN/26-27/000001', 'rfnd_A', part],
      ['CN/26-27/000002', 'rfnd_B', rest],
    ]);
    const summed = amountsOf(notes[0]!).map((v, i) => v + amountsOf(notes[1]!)[i]!);
    expect(summed).toEqual(amountsOf(invoice));
    expect(await invoiceRow(invoice.id)).toMatchObject({
      creditedPaise: invoice.totalPaise,
      status: 'Refunded',
    });
    const [refunded] = await t.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(refunded!.status).toBe('Refunded');
  });

  it('mails each credit note to the customer with its PDF, which refers to the invoice', async () => {
    t.clock.set(new Date('2026-08-01T06:00:00Z'));
    const { b, invoice, paymentId } = await paidOrder(t);
    await reportRefund(t, paymentId, {
      id: 'rfnd_M',
      amountPaise: 500_00,
      refundedSoFarPaise: 500_00,
    });
    const [note] = await notesOf(invoice.id);
    const mail = await t.latestMail();
    expect(mail.to).toBe(b.customer.email);
    expect(mail.subject).toBe(`Your credit note ${note!.creditNoteNumber}`);
    expect(mail.text).toContain(
      `Your GST credit note ${note!.creditNoteNumber}, against invoice ${invoice.invoiceNumber}, is attached as a PDF.`,
    );
    expect(mail.text).toContain('Amount: ₹500.00');
    const [attached] = mail.attachments;
    expect(attached!.filename).toBe(
      `CreditNote-${note!.creditNoteNumber.replaceAll('/', '-')}.pdf`,
    );
    expect(attached!.contentType).toBe('application/pdf');
    const lines = await pdfLines(attached!.content);
    expect(lines).toContain('CREDIT NOTE');
    expect(lines).toContain(`Credit Note No: ${note!.creditNoteNumber}`);
    expect(lines).toContain(`Against Invoice No: ${invoice.invoiceNumber} dated 01/08/2026`);
    expect(lines).toContain('Refund ID: rfnd_M');
    expect(lines).toContain('Reverse charge: No');
    expect(lines).toContain('Total credit ₹500.00');
    expect(attached!.content.equals((await documentPdf(t.deps.files, note!))!)).toBe(true);
  });

  it('credits money once, whether the event comes again, under another id, or late', async () => {
    const { invoice, paymentId } = await paidOrder(t);
    const half = Math.floor(invoice.totalPaise / 2);
    const event = refundEvent(paymentId, {
      id: 'rfnd_H',
      amountPaise: half,
      refundedSoFarPaise: half,
    });
    const eventId = `evt_${randomUUID()}`;
    expect((await sendWebhook(t, 'refund.processed', event, { eventId })).json().message).toBe(
      'unchanged',
    );
    // the same delivery again, the same refund as payment.refunded, and an older running total
    expect((await sendWebhook(t, 'refund.processed', event, { eventId })).json().message).toBe(
      'duplicate',
    );
    const again = await sendWebhook(t, 'payment.refunded', { payment: event.payment });
    expect(again.json()).toEqual({ success: true, message: 'unchanged' });
    const late = await reportRefund(t, paymentId, {
      id: 'rfnd_0',
      amountPaise: half - 1,
      refundedSoFarPaise: half - 1,
    });
    expect(late.json()).toEqual({ success: true, message: 'unchanged' });
    const notes = await notesOf(invoice.id);
    expect(notes.map((n) => n.totalPaise)).toEqual([half]);
    expect((await invoiceRow(invoice.id)).creditedPaise).toBe(half);
  });

  it('credits the whole invoice when the event names no amount', async () => {
    const { invoice, paymentId, order } = await paidOrder(t);
    const res = await sendWebhook(t, 'refund.processed', {
      refund: { entity: { id: 'rfnd_W', payment_id: paymentId } },
    });
    expect(res.json().message).toBe('applied');
    const notes = await notesOf(invoice.id);
    expect(notes.map((n) => [n.totalPaise, n.creditedThroughPaise])).toEqual([
      [order.totalPaise, order.totalPaise],
    ]);
  });

  it('credits no more than the invoice when the gateway reports more refunded', async () => {
    const { invoice, paymentId } = await paidOrder(t);
    await reportRefund(t, paymentId, {
      id: 'rfnd_X',
      amountPaise: invoice.totalPaise + 1,
      refundedSoFarPaise: invoice.totalPaise + 1,
    });
    const notes = await notesOf(invoice.id);
    expect(notes.map((n) => n.totalPaise)).toEqual([invoice.totalPaise]);
  });
});

describe('invoicesInRange', () => {
  it("lists a customer's invoices and credit notes issued in the range, in order, with their tax split", async () => {
    t.clock.set(new Date('2027-01-10T06:00:00Z'));
    const { b, invoice, paymentId } = await paidOrder(t);
    await paidOrder(t); // another customer's
    t.clock.set(new Date('2027-01-11T06:00:00Z'));
    await reportRefund(t, paymentId, {
      id: 'rfnd_R',
      amountPaise: 100_00,
      refundedSoFarPaise: 100_00,
    });
    const [note] = await notesOf(invoice.id);
    const customerId = b.customer.id;

    const all = await invoicesInRange(
      t.deps.db,
      customerId,
      new Date('2027-01-10T06:00:00Z'),
      new Date('2027-01-11T06:00:00.001Z'),
    );
    expect(all).toEqual([
      {
        kind: 'invoice',
        id: invoice.id,
        number: invoice.invoiceNumber,
        issuedAt: invoice.issuedAt,
        orderId: invoice.orderId,
        invoiceNumber: invoice.invoiceNumber,
        invoiceDate: invoice.issuedAt,
        customerGstin: invoice.customerGstin,
        placeOfSupply: invoice.placeOfSupply,
        fileKey: invoice.fileKey,
        taxablePaise: invoice.taxablePaise,
        cgstPaise: invoice.cgstPaise,
        sgstPaise: invoice.sgstPaise,
        igstPaise: invoice.igstPaise,
        untaxedPaise: 0,
        totalPaise: invoice.totalPaise,
      },
      {
        kind: 'credit-note',
        id: note!.id,
        number: note!.creditNoteNumber,
        issuedAt: note!.issuedAt,
        orderId: invoice.orderId,
        invoiceNumber: invoice.invoiceNumber,
        invoiceDate: invoice.issuedAt,
        customerGstin: invoice.customerGstin,
        placeOfSupply: invoice.placeOfSupply,
        fileKey: note!.fileKey,
        taxablePaise: note!.taxablePaise,
        cgstPaise: note!.cgstPaise,
        sgstPaise: note!.sgstPaise,
        igstPaise: note!.igstPaise,
        untaxedPaise: 0,
        totalPaise: 100_00,
      },
    ]);
    // the range includes its start and excludes its end
    const before = await invoicesInRange(
      t.deps.db,
      customerId,
      new Date('2027-01-10T06:00:00.001Z'),
      new Date('2027-01-11T06:00:00Z'),
    );
    expect(before).toEqual([]);
    const endingAtTheInvoice = await invoicesInRange(
      t.deps.db,
      customerId,
      new Date('2027-01-09T00:00:00Z'),
      new Date('2027-01-10T06:00:00Z'),
    );
    expect(endingAtTheInvoice).toEqual([]);
    const pdf = await documentPdf(t.deps.files, all[0]!);
    expect(pdf!.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
