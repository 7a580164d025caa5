import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreditNote, Invoice } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { sessionAuth } from '../../test/customers';
import { KARNATAKA, saveBilling } from '../../test/billing';
import { buyer } from '../../test/payments';
import { getInvoice, listInvoices } from './service';
import { creditNotesOf, payFor, reportRefund } from '../../test/invoices';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The tax a document states: what its total holds beyond the taxable value. */
const taxIn = (document: Invoice | CreditNote) => document.totalPaise - document.taxablePaise;

describe('listInvoices', () => {
  it('pages three at a time, each next page starting after the last invoice shown', async () => {
    t.clock.set(new Date('2026-11-02T06:00:00Z'));
    const b = await buyer(t);
    const numbers: string[] = [];
    for (const minute of [0, 1, 2, 3]) {
      t.clock.set(new Date(`2026-11-02T06:0${minute}:00Z`));
      numbers.push((await payFor(t, b)).invoice.invoiceNumber);
    }
    const newestFirst = numbers.toReversed();
    const auth = await sessionAuth(t, b.customer.id);

    const first = await listInvoices(t.deps, auth, { limit: 3 });
    expect(first.invoices.map((invoice) => invoice.number)).toEqual(newestFirst.slice(0, 3));
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listInvoices(t.deps, auth, {
      limit: 3,
      cursor: first.nextCursor!,
    });
    expect(second.invoices.map((invoice) => invoice.number)).toEqual(newestFirst.slice(3));
    expect(second.nextCursor).toBeNull();

    // a page that holds exactly the invoices there are names no next page
    const whole = await listInvoices(t.deps, auth, { limit: 4 });
    expect(whole.invoices.map((invoice) => invoice.number)).toEqual(newestFirst);
    expect(whole.nextCursor).toBeNull();
  });

  it('answers a customer who has no invoice with an empty page and no next one', async () => {
    const b = await buyer(t);
    const { session, ...page } = await listInvoices(t.deps, await sessionAuth(t, b.customer.id), {
      limit: 20,
    });
    expect(page).toEqual({ invoices: [], nextCursor: null });
    expect(session).toBeDefined();
  });
});

describe('getInvoice', () => {
  it('answers an invoice of the seller’s own State with its credit notes, oldest first, each stating its CGST and SGST as its tax', async () => {
    t.clock.set(new Date('2026-11-03T06:00:00Z'));
    const b = await buyer(t);
    // the seller is in Karnataka (29): a supply there pays CGST and SGST, no IGST
    expect((await saveBilling(t, b.headers, KARNATAKA)).statusCode).toBe(200);
    const { invoice, paymentId } = await payFor(t, b);
    t.clock.set(new Date('2026-11-04T06:00:00Z'));
    await reportRefund(t, paymentId, {
      id: 'rfnd_S1',
      amountPaise: 1_000_00,
      refundedSoFarPaise: 1_000_00,
    });
    t.clock.set(new Date('2026-11-05T06:00:00Z'));
    await reportRefund(t, paymentId, {
      id: 'rfnd_S2',
      amountPaise: 500_00,
      refundedSoFarPaise: 1_500_00,
    });
    const notes = await creditNotesOf(t, invoice.id);

    const answered = await getInvoice(t.deps, b.customer.id, invoice.id);
    expect(answered).toMatchObject({
      _id: invoice.id,
      status: 'Partly refunded',
      cgstPaise: 468_98,
      sgstPaise: 468_97,
      igstPaise: 0,
      taxPaise: 937_95,
      totalPaise: 6_148_77,
    });
    expect(answered.taxPaise).toBe(taxIn(answered));
    expect(
      answered.creditNotes.map(({ _id, issuedAt, totalPaise }) => ({ _id, issuedAt, totalPaise })),
    ).toEqual([
      {
        _id: notes.find((note) => note.refundId === 'rfnd_S1')!.id,
        issuedAt: '2026-11-04T06:00:00.000Z',
        totalPaise: 1_000_00,
      },
      {
        _id: notes.find((note) => note.refundId === 'rfnd_S2')!.id,
        issuedAt: '2026-11-05T06:00:00.000Z',
        totalPaise: 500_00,
      },
    ]);
    for (const note of answered.creditNotes) {
      expect(note.cgstPaise, note.number).toBeGreaterThan(0);
      expect(note.sgstPaise, note.number).toBeGreaterThan(0);
      expect(note.igstPaise, note.number).toBe(0);
      expect(note.taxPaise, note.number).toBe(taxIn(note));
    }
  });
});
