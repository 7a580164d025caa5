import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invoice } from '@portal/contract';
import { createEInvoiceClient, irnOf } from '../../adapters/e-invoice';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders } from '../../test/customers';
import { buyer } from '../../test/payments';
import { paidOrder, pdfLines, reportRefund } from '../../test/invoices';
import { jobsOf, runRetriesNow } from '../../test/queue';
import { sandboxIrpDocuments } from '../../sandbox/irp/schema';
import { financialYearOf } from './gst';
import { creditNotes, invoices } from './schema';

/**
 * Invoices and credit notes registered with the IRP before they are drawn, against the sandbox
 * IRP served by the app (decision 083).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { E_INVOICING: 'on' } });
});
afterAll(() => t.close());

const listed = async (headers: Record<string, string>) =>
  (await t.app.inject({ method: 'GET', url: '/api/invoices', headers })).json()
    .invoices as Invoice[];

/** What the PDF behind a document's link says, line by line. */
async function pdfOf(url: string) {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  return (await pdfLines(res.rawPayload)).join('\n');
}

describe('with E_INVOICING=on', () => {
  it('registers a paid order’s invoice and prints its IRN and acknowledgement', async () => {
    t.clock.set(new Date('2026-10-05T06:00:00Z'));
    const { b, invoice } = await paidOrder(t);
    const irn = irnOf({
      gstin: t.config.INVOICE_SUPPLIER_GSTIN,
      financialYear: financialYearOf(invoice.issuedAt),
      docType: 'INV',
      docNo: invoice.invoiceNumber,
    });
    const [row] = await t.deps.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(row).toMatchObject({ eInvoiceStatus: 'Registered', irn, eInvoiceRefusal: null });
    expect(row!.ackNo).toMatch(/^\d{15}$/);

    // the IRP holds the document as the invoice states it
    const [registered] = await t.deps.db
      .select()
      .from(sandboxIrpDocuments)
      .where(eq(sandboxIrpDocuments.irn, irn));
    expect(registered).toMatchObject({ docType: 'INV', docNo: invoice.invoiceNumber });
    expect(registered!.document).toMatchObject({
      BuyerDtls: { Gstin: invoice.customerGstin },
      ValDtls: { AssVal: invoice.taxablePaise / 100, TotInvVal: invoice.totalPaise / 100 },
    });

    const [shown] = await listed(b.headers);
    expect(shown!.eInvoice).toEqual({
      status: 'Registered',
      irn,
      ackNo: row!.ackNo,
      ackDate: row!.ackDate!.toISOString(),
      refusal: null,
    });
    const pdf = await pdfOf(shown!.pdfUrl);
    expect(pdf.replace(/\s/g, '')).toContain(irn);
    expect(pdf).toContain(`Ack No: ${row!.ackNo}`);
  });

  it('registers a credit note with its invoice as the preceding document', async () => {
    t.clock.set(new Date('2026-10-06T06:00:00Z'));
    const { b, invoice, paymentId } = await paidOrder(t);
    await reportRefund(t, paymentId, {
      id: 'rfnd_E',
      amountPaise: 100_00,
      refundedSoFarPaise: 100_00,
    });
    const [note] = await t.deps.db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.invoiceId, invoice.id));
    expect(note).toMatchObject({ eInvoiceStatus: 'Registered' });
    const [registered] = await t.deps.db
      .select()
      .from(sandboxIrpDocuments)
      .where(eq(sandboxIrpDocuments.irn, note!.irn!));
    expect(registered).toMatchObject({ docType: 'CRN', docNo: note!.creditNoteNumber });
    expect(registered!.document).toMatchObject({
      RefDtls: { PrecDocDtls: [{ InvNo: invoice.invoiceNumber, InvDt: '06/10/2026' }] },
      ValDtls: { TotInvVal: 100 },
    });
    const [shown] = await listed(b.headers);
    expect(shown!.creditNotes[0]!.eInvoice).toMatchObject({ status: 'Registered', irn: note!.irn });
  });
});

describe('when the IRP cannot be reached', () => {
  /** The IRP's client pointed at a port where nothing answers, for the length of `run`. */
  async function irpAway<T>(run: () => Promise<T>): Promise<T> {
    const eInvoicing = t.deps.eInvoicing!;
    t.deps.eInvoicing = {
      ...eInvoicing,
      client: createEInvoiceClient(
        { baseUrl: 'http://127.0.0.1:9', ...eInvoicing.sandboxIrp!, timeoutMs: 2_000 },
        t.clock,
      ),
    };
    try {
      return await run();
    } finally {
      t.deps.eInvoicing = eInvoicing;
    }
  }

  /**
   * Pays for a plan with the IRP away: the invoice is issued, and the worker's first try to
   * register it has failed and waits to be tried again.
   */
  async function paidWhileAway() {
    await t.drawDocuments();
    return irpAway(async () => {
      const b = await buyer(t);
      const orderId = await b.order();
      const { checkoutPath } = await b.pay(orderId);
      await b.checkout(checkoutPath, 'pay');
      const [invoice] = await t.deps.db
        .select()
        .from(invoices)
        .where(eq(invoices.orderId, orderId));
      t.deps.queue.wake('document-draw');
      await expect
        .poll(
          async () => (await jobsOf(t, 'document-draw')).find((job) => job.data.id === invoice!.id),
          { timeout: 10_000 },
        )
        .toMatchObject({
          state: 'retry',
          output: { message: expect.stringContaining('unreachable') },
        });
      return { b, invoice: invoice! };
    });
  }

  it('keeps the document being registered, with no PDF yet, and registers it once the IRP is back', async () => {
    t.clock.set(new Date('2026-10-07T06:00:00Z'));
    const { b, invoice } = await paidWhileAway();
    expect(invoice.eInvoiceStatus).toBe('Being registered');
    const [shown] = await listed(b.headers);
    expect(shown).toMatchObject({
      pdfReady: false,
      eInvoice: { status: 'Being registered', irn: null, ackNo: null, refusal: null },
    });
    const early = await t.app.inject({ method: 'GET', url: shown!.pdfUrl });
    expect(early.statusCode).toBe(409);

    await runRetriesNow(t, 'document-draw');
    await t.drawDocuments();
    const [later] = await listed(b.headers);
    expect(later).toMatchObject({ pdfReady: true, eInvoice: { status: 'Registered' } });
    expect(later!.eInvoice!.irn).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps the IRP’s refusal of a document past the 30 days of reporting, and draws it without an IRN', async () => {
    t.clock.set(new Date('2026-10-08T06:00:00Z'));
    const { invoice } = await paidWhileAway();
    t.clock.set(new Date('2026-11-08T06:00:00Z'));
    await runRetriesNow(t, 'document-draw');
    await t.drawDocuments();
    const [row] = await t.deps.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(row).toMatchObject({ eInvoiceStatus: 'Refused', irn: null });
    expect(row!.eInvoiceRefusal).toContain('older than 30 days');
    // a month on, the customer signs in again
    const [shown] = await listed(await authHeaders(t, invoice.customerId));
    expect(shown).toMatchObject({
      pdfReady: true,
      eInvoice: { status: 'Refused', irn: null, refusal: row!.eInvoiceRefusal },
    });
    expect(await pdfOf(shown!.pdfUrl)).not.toContain('IRN');
    const counted = await t.deps.metrics.registry.getSingleMetricAsString(
      'portal_e_invoice_registrations_total',
    );
    expect(counted).toMatch(/outcome="refused"} [1-9]/);
    expect(counted).toMatch(/outcome="unavailable"} [1-9]/);
  });
});
