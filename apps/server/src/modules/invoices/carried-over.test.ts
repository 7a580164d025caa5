import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { splitTax } from './amounts';
import { splitCarriedOverByState } from './carried-over';
import { creditNotes, invoices, type InvoiceRow } from './schema';
import { paidOrder, reportRefund } from '../../test/invoices';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const taxOf = (row: { cgstPaise: number; sgstPaise: number; igstPaise: number }) =>
  row.cgstPaise + row.sgstPaise + row.igstPaise;

/** Makes an invoice look as migration 0005 carried it over: untaxed charge, State 29's split. */
async function asCarriedOver(invoice: InvoiceRow, placeOfSupply: string) {
  await t.deps.db
    .update(invoices)
    .set({
      untaxedPaise: 50_00,
      placeOfSupply,
      ...splitTax(taxOf(invoice), placeOfSupply === '29'),
    })
    .where(eq(invoices.id, invoice.id));
}

const invoiceOf = async (id: string) =>
  (await t.deps.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;

describe('the invoices carried over from the receipts', () => {
  it('take the GST split of the configured supplier’s State at start, with their credit notes', async () => {
    t.clock.set(new Date('2026-07-01T06:00:00Z'));
    const inState29 = await paidOrder(t);
    const inState27 = await paidOrder(t);
    const issuedNow = await paidOrder(t);
    await reportRefund(t, inState29.paymentId, {
      id: 'rfnd_CO',
      amountPaise: 200_00,
      refundedSoFarPaise: 200_00,
    });
    const [note] = await t.deps.db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.invoiceId, inState29.invoice.id));
    await asCarriedOver(inState29.invoice, '29');
    await t.deps.db
      .update(creditNotes)
      .set(splitTax(taxOf(note!), true))
      .where(eq(creditNotes.id, note!.id));
    await asCarriedOver(inState27.invoice, '27');
    // an invoice issued by the invoices code keeps what it was issued with
    await t.deps.db
      .update(invoices)
      .set({ placeOfSupply: '29', ...splitTax(taxOf(issuedNow.invoice), true) })
      .where(eq(invoices.id, issuedNow.invoice.id));
    const untouched = await invoiceOf(issuedNow.invoice.id);

    // a start with a supplier in Maharashtra (27) on this database
    await splitCarriedOverByState(t.deps.db, '27AAPFU0939F1ZV');

    const tax29 = taxOf(inState29.invoice);
    expect(await invoiceOf(inState29.invoice.id)).toMatchObject({
      placeOfSupply: '29',
      ...splitTax(tax29, false),
    });
    const [noteAfter] = await t.deps.db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.id, note!.id));
    expect(noteAfter).toMatchObject(splitTax(taxOf(note!), false));
    expect(await invoiceOf(inState27.invoice.id)).toMatchObject({
      placeOfSupply: '27',
      ...splitTax(taxOf(inState27.invoice), true),
    });
    expect(await invoiceOf(issuedNow.invoice.id)).toEqual(untouched);

    // once done, a start changes nothing
    const all = () => t.deps.db.select().from(invoices).orderBy(invoices.id);
    const before = await all();
    await splitCarriedOverByState(t.deps.db, '27AAPFU0939F1ZV');
    expect(await all()).toEqual(before);
  });
});
