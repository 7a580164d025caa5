import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { buyer } from '../../test/payments';
import { invoicesInRange } from './reads';
import { creditNotesOf, payFor, reportRefund } from '../../test/invoices';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('invoicesInRange', () => {
  // the invoice register and the Tally vouchers of an export list the documents as they read here
  it('puts a credit note between the invoices issued before and after it, and documents issued at the same moment in number order', async () => {
    t.clock.set(new Date('2027-02-01T06:00:00Z'));
    const b = await buyer(t);
    const first = await payFor(t, b);
    t.clock.set(new Date('2027-02-01T06:01:00Z'));
    await reportRefund(t, first.paymentId, {
      id: 'rfnd_ORDER',
      amountPaise: 100_00,
      refundedSoFarPaise: 100_00,
    });
    const [note] = await creditNotesOf(t, first.invoice.id);
    t.clock.set(new Date('2027-02-01T06:02:00Z'));
    const second = await payFor(t, b);
    const third = await payFor(t, b);

    const documents = await invoicesInRange(
      t.deps.db,
      b.customer.id,
      new Date('2027-02-01T00:00:00Z'),
      new Date('2027-02-02T00:00:00Z'),
    );
    expect(documents.map(({ kind, number, issuedAt }) => ({ kind, number, issuedAt }))).toEqual([
      {
        kind: 'invoice',
        number: first.invoice.invoiceNumber,
        issuedAt: new Date('2027-02-01T06:00:00Z'),
      },
      {
        kind: 'credit-note',
        number: note!.creditNoteNumber,
        issuedAt: new Date('2027-02-01T06:01:00Z'),
      },
      {
        kind: 'invoice',
        number: second.invoice.invoiceNumber,
        issuedAt: new Date('2027-02-01T06:02:00Z'),
      },
      {
        kind: 'invoice',
        number: third.invoice.invoiceNumber,
        issuedAt: new Date('2027-02-01T06:02:00Z'),
      },
    ]);
    expect(second.invoice.invoiceNumber < third.invoice.invoiceNumber).toBe(true);
  });
});
