import { randomUUID } from 'node:crypto';
import { asc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { orders } from '../purchases/schema';
import { buyer, refundEvent, sendWebhook } from '../../test/payments';
import { documentPdf, invoicesInRange } from './reads';
import { creditNotes, invoices } from './schema';
import { paidOrder, pdfLines, reportRefund } from '../../test/invoices';

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
    await t.drawDocuments();
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
        drawn: true,
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
        drawn: true,
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

describe('numbering credit notes: a refund that issues no note takes no number', () => {
  /** The credit notes of a financial year's series (`28-29`), in number order. */
  const series = (year: string) =>
    t.deps.db
      .select({ number: creditNotes.creditNoteNumber, refundId: creditNotes.refundId })
      .from(creditNotes)
      .where(like(creditNotes.creditNoteNumber, `CN/${year}/%`))
      .orderBy(asc(creditNotes.creditNoteNumber));

  const statusOf = async (orderId: string) =>
    (await t.deps.db.select({ s: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]!.s;

  it('numbers on with no gap after the same refund again, an older running total, and a refund of a refunded order', async () => {
    t.clock.set(new Date('2028-05-02T06:00:00Z'));
    const a = await paidOrder(t);
    const b = await paidOrder(t);
    const half = Math.floor(a.invoice.totalPaise / 2);
    const firstHalf = refundEvent(a.paymentId, {
      id: 'rfnd_N1',
      amountPaise: half,
      refundedSoFarPaise: half,
    });
    expect((await sendWebhook(t, 'refund.processed', firstHalf)).json().message).toBe('unchanged');
    expect(await series('28-29')).toEqual([{ number: 'CN/28-29/000001', refundId: 'rfnd_N1' }]);

    // nothing new to credit: the same refund under another event id and as payment.refunded,
    // and a running total older than the one credited
    expect((await sendWebhook(t, 'refund.processed', firstHalf)).json().message).toBe('unchanged');
    expect(
      (await sendWebhook(t, 'payment.refunded', { payment: firstHalf.payment })).json().message,
    ).toBe('unchanged');
    const late = await reportRefund(t, a.paymentId, {
      id: 'rfnd_N0',
      amountPaise: half - 1,
      refundedSoFarPaise: half - 1,
    });
    expect(late.json().message).toBe('unchanged');

    // another order's refund takes the next number
    const whole = await reportRefund(t, b.paymentId, {
      id: 'rfnd_N2',
      amountPaise: b.invoice.totalPaise,
      refundedSoFarPaise: b.invoice.totalPaise,
    });
    expect(whole.json().message).toBe('applied');
    expect(await series('28-29')).toEqual([
      { number: 'CN/28-29/000001', refundId: 'rfnd_N1' },
      { number: 'CN/28-29/000002', refundId: 'rfnd_N2' },
    ]);

    // a refunded order takes no further refund: again, or beyond its total
    for (const extra of [
      { id: 'rfnd_N2', amountPaise: b.invoice.totalPaise },
      { id: 'rfnd_N3', amountPaise: 100, refundedSoFarPaise: b.invoice.totalPaise + 100 },
    ]) {
      const res = await reportRefund(t, b.paymentId, {
        refundedSoFarPaise: extra.amountPaise,
        ...extra,
      });
      expect(res.json()).toEqual({ success: true, message: 'unchanged' });
    }
    expect(await statusOf(b.order.id)).toBe('Refunded');

    const rest = await reportRefund(t, a.paymentId, {
      id: 'rfnd_N4',
      amountPaise: a.invoice.totalPaise - half,
      refundedSoFarPaise: a.invoice.totalPaise,
    });
    expect(rest.json().message).toBe('applied');
    expect(await series('28-29')).toEqual([
      { number: 'CN/28-29/000001', refundId: 'rfnd_N1' },
      { number: 'CN/28-29/000002', refundId: 'rfnd_N2' },
      { number: 'CN/28-29/000003', refundId: 'rfnd_N4' },
    ]);
  });

  it('takes no number for the refund of a paid order that has no invoice', async () => {
    t.clock.set(new Date('2029-05-02T06:00:00Z'));
    // an order paid before invoices were issued: Completed, with its payment, but no invoice
    const legacy = await buyer(t);
    const legacyOrderId = await legacy.order();
    await t.deps.db
      .update(orders)
      .set({ status: 'Completed', gatewayPaymentId: 'pay_LEGACY29', paidAt: t.clock.now() })
      .where(eq(orders.id, legacyOrderId));
    const paid = await paidOrder(t);

    const res = await sendWebhook(
      t,
      'refund.processed',
      refundEvent('pay_LEGACY29', { id: 'rfnd_L1', amountPaise: paid.order.totalPaise }),
    );
    expect(res.statusCode).toBe(200);
    expect(await series('29-30')).toEqual([]);

    await reportRefund(t, paid.paymentId, {
      id: 'rfnd_L2',
      amountPaise: 500_00,
      refundedSoFarPaise: 500_00,
    });
    expect(await series('29-30')).toEqual([{ number: 'CN/29-30/000001', refundId: 'rfnd_L2' }]);
  });

  it('gives the number back when the refund fails after taking it, and numbers the retry on', async () => {
    t.clock.set(new Date('2030-05-02T06:00:00Z'));
    const a = await paidOrder(t);
    const b = await paidOrder(t);
    const refundOfA = refundEvent(a.paymentId, {
      id: 'rfnd_F1',
      amountPaise: a.invoice.totalPaise,
      refundedSoFarPaise: a.invoice.totalPaise,
    });
    const eventId = `evt_${randomUUID()}`;
    // the queue refuses the credit note's drawing, asked for after its number was taken
    const queue = t.deps.queue;
    t.deps.queue = {
      ...queue,
      send: async (executor, name, data, options) => {
        if (name === 'document-draw') throw new Error('queue unavailable');
        return queue.send(executor, name, data, options);
      },
    };
    try {
      const failed = await sendWebhook(t, 'refund.processed', refundOfA, { eventId });
      expect(failed.statusCode).toBe(500);
    } finally {
      t.deps.queue = queue;
    }
    expect(await series('30-31')).toEqual([]);
    expect(await invoiceRow(a.invoice.id)).toMatchObject({ creditedPaise: 0, status: 'Issued' });
    expect(await statusOf(a.order.id)).toBe('Completed');

    const other = await reportRefund(t, b.paymentId, {
      id: 'rfnd_F2',
      amountPaise: b.invoice.totalPaise,
      refundedSoFarPaise: b.invoice.totalPaise,
    });
    expect(other.json().message).toBe('applied');
    expect(await series('30-31')).toEqual([{ number: 'CN/30-31/000001', refundId: 'rfnd_F2' }]);

    // the gateway sends the failed delivery again: it was not recorded, and now applies
    const retried = await sendWebhook(t, 'refund.processed', refundOfA, { eventId });
    expect(retried.json().message).toBe('applied');
    expect(await series('30-31')).toEqual([
      { number: 'CN/30-31/000001', refundId: 'rfnd_F2' },
      { number: 'CN/30-31/000002', refundId: 'rfnd_F1' },
    ]);
  });

  it('issues no credit note for a refund of a Pending or Failed order, and numbers on with no gap', async () => {
    t.clock.set(new Date('2031-05-02T06:00:00Z'));
    const paid = await paidOrder(t);
    const half = Math.floor(paid.invoice.totalPaise / 2);
    await reportRefund(t, paid.paymentId, {
      id: 'rfnd_P1',
      amountPaise: half,
      refundedSoFarPaise: half,
    });
    expect(await series('31-32')).toEqual([{ number: 'CN/31-32/000001', refundId: 'rfnd_P1' }]);

    const b = await buyer(t);
    const pending = await b.order();
    const failed = await b.order();
    await b.checkout((await b.pay(failed)).checkoutPath, 'fail');
    expect(await statusOf(failed)).toBe('Failed');
    // each with a payment id of its own, so that the refund event finds it
    for (const [orderId, paymentId] of [
      [pending, 'pay_PENDING31'],
      [failed, 'pay_FAILED31'],
    ] as const) {
      await t.deps.db
        .update(orders)
        .set({ gatewayPaymentId: paymentId })
        .where(eq(orders.id, orderId));
      const res = await reportRefund(t, paymentId, {
        id: `rfnd_${paymentId}`,
        amountPaise: paid.order.totalPaise,
        refundedSoFarPaise: paid.order.totalPaise,
      });
      expect(res.json()).toEqual({ success: true, message: 'unchanged' });
    }
    expect(await statusOf(pending)).toBe('Pending');
    expect(await statusOf(failed)).toBe('Failed');
    expect(
      await t.deps.db.select().from(creditNotes).where(eq(creditNotes.customerId, b.customer.id)),
    ).toEqual([]);

    await reportRefund(t, paid.paymentId, {
      id: 'rfnd_P2',
      amountPaise: paid.invoice.totalPaise - half,
      refundedSoFarPaise: paid.invoice.totalPaise,
    });
    expect(await series('31-32')).toEqual([
      { number: 'CN/31-32/000001', refundId: 'rfnd_P1' },
      { number: 'CN/31-32/000002', refundId: 'rfnd_P2' },
    ]);
  });
});
