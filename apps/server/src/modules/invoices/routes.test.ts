import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditNotePdfPath, invoicePdfPath, type Invoice } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { BUILDS_AN_APP } from '../../test/api-document';
import { DOCUMENT_LINK_TTL_SECONDS } from './service';
import { creditNotes } from './schema';
import { creditNotesOf, paidOrder, payFor, pdfLines, reportRefund } from '../../test/invoices';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('GET /api/invoices', () => {
  it('lists the customer’s invoices newest first, a page at a time, each with its credit notes', async () => {
    t.clock.set(new Date('2026-09-01T06:00:00Z'));
    const first = await paidOrder(t);
    const { b } = first;
    t.clock.set(new Date('2026-09-01T06:01:00Z'));
    const second = await payFor(t, b);
    t.clock.set(new Date('2026-09-01T06:02:00Z'));
    const third = await payFor(t, b);
    await reportRefund(t, second.paymentId, {
      id: 'rfnd_L',
      amountPaise: 300_00,
      refundedSoFarPaise: 300_00,
    });
    const [note] = await t.deps.db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.invoiceId, second.invoice.id));

    const page1 = await get('/api/invoices?limit=2', b.headers);
    expect(page1.statusCode).toBe(200);
    const body1 = page1.json() as { invoices: Invoice[]; nextCursor: string | null };
    expect(body1.invoices.map((i) => i.number)).toEqual([
      third.invoice.invoiceNumber,
      second.invoice.invoiceNumber,
    ]);
    const listed = body1.invoices[1]!;
    const inv = second.invoice;
    expect(listed).toMatchObject({
      _id: inv.id,
      orderId: second.order.id,
      issuedAt: '2026-09-01T06:01:00.000Z',
      status: 'Partly refunded',
      taxablePaise: inv.taxablePaise,
      cgstPaise: inv.cgstPaise,
      sgstPaise: inv.sgstPaise,
      igstPaise: inv.igstPaise,
      taxPaise: inv.cgstPaise + inv.sgstPaise + inv.igstPaise,
      totalPaise: inv.totalPaise,
    });
    expect(listed.creditNotes).toEqual([
      {
        _id: note!.id,
        number: note!.creditNoteNumber,
        issuedAt: '2026-09-01T06:02:00.000Z',
        taxablePaise: note!.taxablePaise,
        cgstPaise: note!.cgstPaise,
        sgstPaise: note!.sgstPaise,
        igstPaise: note!.igstPaise,
        taxPaise: note!.cgstPaise + note!.sgstPaise + note!.igstPaise,
        totalPaise: 300_00,
        pdfUrl: expect.stringContaining(creditNotePdfPath(note!.id)),
        pdfReady: true,
        // e-invoicing is off
        eInvoice: null,
      },
    ]);
    expect(body1.invoices[0]!).toMatchObject({ status: 'Issued', creditNotes: [] });

    const page2 = (await get(`/api/invoices?limit=2&cursor=${body1.nextCursor}`, b.headers)).json();
    expect(page2.invoices.map((i: Invoice) => i.number)).toEqual([first.invoice.invoiceNumber]);
    expect(page2.nextCursor).toBeNull();

    // the links open the documents, in a new tab without the bearer token
    const invoicePdf = await get(listed.pdfUrl);
    expect(invoicePdf.statusCode).toBe(200);
    expect(invoicePdf.headers['content-type']).toBe('application/pdf');
    expect(invoicePdf.headers['content-disposition']).toBe(
      `inline; filename="Invoice-${inv.invoiceNumber.replaceAll('/', '-')}.pdf"`,
    );
    expect(await pdfLines(invoicePdf.rawPayload)).toContain(`Invoice No: ${inv.invoiceNumber}`);
    const notePdf = await get(listed.creditNotes[0]!.pdfUrl);
    expect(notePdf.statusCode).toBe(200);
    expect(notePdf.headers['content-disposition']).toBe(
      `inline; filename="CreditNote-${note!.creditNoteNumber.replaceAll('/', '-')}.pdf"`,
    );
    expect(await pdfLines(notePdf.rawPayload)).toContain(
      `Against Invoice No: ${inv.invoiceNumber} dated 01/09/2026`,
    );

    // between a document's commit and its drawing, the list says so, and its link says wait
    await t.deps.db.update(creditNotes).set({ drawnAt: null }).where(eq(creditNotes.id, note!.id));
    const one = (await get(`/api/invoices/${inv.id}`, b.headers)).json().invoice as Invoice;
    expect(one).toMatchObject({ pdfReady: true, creditNotes: [{ pdfReady: false }] });
    const waiting = await get(one.creditNotes[0]!.pdfUrl);
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json().message).toBe(
      'This document is being prepared. Please try again in a moment.',
    );
  });

  it('shows a customer none of another customer’s invoices', async () => {
    await paidOrder(t);
    const other = await paidOrder(t);
    const res = await get('/api/invoices', other.b.headers);
    expect(res.json().invoices.map((i: Invoice) => i._id)).toEqual([other.invoice.id]);
  });

  it.each([
    [
      'a cursor it did not give',
      '?cursor=abc',
      'cursor: must be the nextCursor of an earlier page',
    ],
    ['a limit of 0', '?limit=0', 'must be a whole number from 1 to 100'],
    ['a limit over 100', '?limit=101', 'must be a whole number from 1 to 100'],
  ])('refuses %s with a 400 that says why', async (_, query, message) => {
    const { b } = await paidOrder(t);
    const res = await get(`/api/invoices${query}`, b.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it('asks for a session', async () => {
    expect((await get('/api/invoices')).statusCode).toBe(401);
  });
});

describe('GET /api/invoices/:id', () => {
  it('answers one of the customer’s invoices, and another customer’s as not found', async () => {
    const mine = await paidOrder(t);
    const theirs = await paidOrder(t);
    const own = await get(`/api/invoices/${mine.invoice.id}`, mine.b.headers);
    expect(own.statusCode).toBe(200);
    expect(own.json().invoice).toMatchObject({
      _id: mine.invoice.id,
      number: mine.invoice.invoiceNumber,
    });
    const other = await get(`/api/invoices/${theirs.invoice.id}`, mine.b.headers);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ success: false, message: 'Invoice not found' });
  });

  it.each([
    ['an id that is no UUID', 'not-an-id', 404, 'Invoice not found'],
    [
      'an id longer than the router takes',
      'x'.repeat(101),
      414,
      'A value in the address is too long',
    ],
  ])('refuses %s with a 4xx that says why', async (_, id, status, message) => {
    const { b } = await paidOrder(t);
    const res = await get(`/api/invoices/${id}`, b.headers);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toContain(message);
  });
});

describe('GET /api/invoices/:id/pdf and /api/credit-notes/:id/pdf', () => {
  const link = (path: string, customerId: string) =>
    t.deps.signedLinks.sign(path, customerId, DOCUMENT_LINK_TTL_SECONDS);

  it('opens no document of another customer, even by a rightly signed link', async () => {
    const mine = await paidOrder(t);
    const theirs = await paidOrder(t);
    await reportRefund(t, theirs.paymentId, {
      id: 'rfnd_O',
      amountPaise: 100_00,
      refundedSoFarPaise: 100_00,
    });
    const [note] = await t.deps.db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.invoiceId, theirs.invoice.id));
    const invoiceRes = await get(link(invoicePdfPath(theirs.invoice.id), mine.b.customer.id));
    expect(invoiceRes.statusCode).toBe(404);
    expect(invoiceRes.json().message).toBe('Invoice not found');
    const noteRes = await get(link(creditNotePdfPath(note!.id), mine.b.customer.id));
    expect(noteRes.statusCode).toBe(404);
    expect(noteRes.json().message).toBe('Credit note not found');
  });

  it('refuses a link with a wrong signature, an expired one, and one for no such document', async () => {
    const { b, invoice } = await paidOrder(t);
    const good = link(invoicePdfPath(invoice.id), b.customer.id);
    expect((await get(good.replace(/sig=[^&]+/, 'sig=0000'))).statusCode).toBe(403);
    t.clock.advance((DOCUMENT_LINK_TTL_SECONDS + 1) * 1000);
    expect((await get(good)).statusCode).toBe(410);
    expect((await get(link(invoicePdfPath('nope'), b.customer.id))).statusCode).toBe(404);
    expect((await get(link(creditNotePdfPath('nope'), b.customer.id))).statusCode).toBe(404);
  });

  it('opens an invoice and its credit note by the links the list gives for 600 s, and no longer', async () => {
    const { b, paymentId } = await paidOrder(t);
    await reportRefund(t, paymentId, {
      id: 'rfnd_T',
      amountPaise: 100_00,
      refundedSoFarPaise: 100_00,
    });
    await t.drawDocuments();
    const [listed] = (await get('/api/invoices', b.headers)).json().invoices as Invoice[];
    const urls = [listed!.pdfUrl, listed!.creditNotes[0]!.pdfUrl];
    // a second before the 600 s are up, both still open; a second after, both have expired
    t.clock.advance(599_000);
    for (const url of urls) expect((await get(url)).statusCode, url).toBe(200);
    t.clock.advance(2_000);
    for (const url of urls) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(410);
      expect(res.json().message).toMatch(/expired/);
    }
  });

  it('answers not found when the file is missing from the store', async () => {
    const { b, invoice } = await paidOrder(t);
    await t.deps.files.remove(invoice.fileKey);
    const res = await get(link(invoicePdfPath(invoice.id), b.customer.id));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Invoice not found');
  });
});

describe('the invoice calls, on an app built by the test itself', () => {
  // built here, not in a hook: the routes' handlers then count as run by this test
  it(
    'lists and answers the customer’s invoice, and opens its PDF and its credit note’s, kept by no cache',
    async () => {
      const own = await createTestApp();
      try {
        const { b, invoice, paymentId } = await paidOrder(own);
        await reportRefund(own, paymentId, {
          id: 'rfnd_OWN',
          amountPaise: 100_00,
          refundedSoFarPaise: 100_00,
        });
        await own.drawDocuments();
        const [note] = await creditNotesOf(own, invoice.id);
        const call = (url: string, headers: Record<string, string> = {}) =>
          own.app.inject({ method: 'GET', url, headers });

        const list = await call('/api/invoices', b.headers);
        expect(list.statusCode).toBe(200);
        expect(list.json()).toMatchObject({
          success: true,
          invoices: [{ _id: invoice.id, creditNotes: [{ _id: note!.id }] }],
          nextCursor: null,
        });

        const one = await call(`/api/invoices/${invoice.id}`, b.headers);
        expect(one.statusCode).toBe(200);
        const body = one.json() as { success: boolean; invoice: Invoice };
        expect(body).toMatchObject({
          success: true,
          invoice: { _id: invoice.id, number: invoice.invoiceNumber },
        });

        // a tax document is the customer's alone: no shared cache or browser history keeps it
        for (const [url, number] of [
          [body.invoice.pdfUrl, invoice.invoiceNumber],
          [body.invoice.creditNotes[0]!.pdfUrl, note!.creditNoteNumber],
        ] as const) {
          const pdf = await call(url);
          expect(pdf.statusCode, url).toBe(200);
          expect(pdf.headers['content-type'], url).toBe('application/pdf');
          expect(pdf.headers['content-length'], url).toBe(String(pdf.rawPayload.length));
          expect(pdf.headers['cache-control'], url).toBe('private, no-store');
          expect(pdf.headers['content-disposition'], url).toContain(number.replaceAll('/', '-'));
          expect(pdf.rawPayload.subarray(0, 5).toString(), url).toBe('%PDF-');
        }
      } finally {
        await own.close();
      }
    },
    BUILDS_AN_APP,
  );
});
