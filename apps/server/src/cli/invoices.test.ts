import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invoice } from '@portal/contract';
import { HOUR_MS } from '../lib/clock';
import { creditNotes, invoices } from '../modules/invoices/schema';
import { sandboxIrpDocuments } from '../sandbox/irp/schema';
import { createTestApp, type TestApp } from '../test/app';
import { authHeaders } from '../test/customers';
import { paidOrder, reportRefund } from '../test/invoices';
import { CliError } from './command';
import { invoiceCommands } from './invoices';
import { printedBy } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { E_INVOICING: 'on' } });
});
afterAll(() => t.close());

const cancel = async (...args: string[]) =>
  (await printedBy(() => invoiceCommands['invoices:cancel-irn']!.run(args, t.deps))).out;

const irpRow = async (irn: string) =>
  (await t.deps.db.select().from(sandboxIrpDocuments).where(eq(sandboxIrpDocuments.irn, irn)))[0]!;

const invoiceRow = async (id: string) =>
  (await t.deps.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;

describe('invoices:cancel-irn', () => {
  it('cancels an IRN within 24 hours at the IRP, and the customer sees it cancelled', async () => {
    t.clock.set(new Date('2026-10-05T06:00:00Z'));
    const { invoice } = await paidOrder(t);
    const { irn } = await invoiceRow(invoice.id);
    t.clock.set(new Date('2026-10-06T05:59:00Z'));

    const out = await cancel(
      '--number',
      invoice.invoiceNumber.toLowerCase(),
      '--reason',
      'data-entry-mistake',
      '--remark',
      'The buyer’s address was wrong',
    );
    expect(out).toEqual([
      `IRN of ${invoice.invoiceNumber} cancelled at the IRP: ${irn}. The customer's Invoices page shows it cancelled.`,
    ]);
    expect(await invoiceRow(invoice.id)).toMatchObject({
      eInvoiceStatus: 'Cancelled',
      irn,
      eInvoiceCancelledAt: new Date('2026-10-06T05:59:00Z'),
    });
    expect(await irpRow(irn!)).toMatchObject({
      status: 'CNL',
      cancelReason: '2',
      cancelRemark: 'The buyer’s address was wrong',
    });
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/invoices',
      headers: await authHeaders(t, invoice.customerId),
    });
    expect((listed.json().invoices as Invoice[])[0]!.eInvoice).toMatchObject({
      status: 'Cancelled',
      irn,
    });

    // once cancelled, there is no IRN left to cancel
    await expect(
      cancel('--number', invoice.invoiceNumber, '--reason', 'duplicate', '--remark', 'Again'),
    ).rejects.toThrow(
      new CliError(`${invoice.invoiceNumber} has no IRN to cancel: its e-invoice is cancelled`),
    );
  });

  it('refuses after 24 hours and points to a credit note, changing nothing', async () => {
    t.clock.set(new Date('2026-10-07T06:00:00Z'));
    const { invoice } = await paidOrder(t);
    const { irn } = await invoiceRow(invoice.id);
    t.clock.set(new Date('2026-10-08T06:01:00Z'));
    await expect(
      cancel('--number', invoice.invoiceNumber, '--reason', 'other', '--remark', 'Late'),
    ).rejects.toThrow(
      `${invoice.invoiceNumber} was acknowledged by the IRP on 07/10/2026, 11:30, over 24 hours ago: its IRN can no longer be cancelled. Issue a credit note instead`,
    );
    expect(await invoiceRow(invoice.id)).toMatchObject({
      eInvoiceStatus: 'Registered',
      eInvoiceCancelledAt: null,
    });
    expect(await irpRow(irn!)).toMatchObject({ status: 'ACT' });
  });

  it('cancels a credit note’s IRN by its number', async () => {
    t.clock.set(new Date('2026-10-09T06:00:00Z'));
    const { invoice, paymentId } = await paidOrder(t);
    await reportRefund(t, paymentId, {
      id: 'rfnd_C',
      amountPaise: 50_00,
      refundedSoFarPaise: 50_00,
    });
    const [note] = await t.deps.db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.invoiceId, invoice.id));
    t.clock.set(new Date(new Date('2026-10-09T06:00:00Z').getTime() + 2 * HOUR_MS));
    await cancel('--number', note!.creditNoteNumber, '--reason', 'duplicate', '--remark', 'Twice');
    const [after] = await t.deps.db.select().from(creditNotes).where(eq(creditNotes.id, note!.id));
    expect(after).toMatchObject({ eInvoiceStatus: 'Cancelled' });
    expect(await irpRow(note!.irn!)).toMatchObject({ status: 'CNL', cancelReason: '1' });
    expect(await invoiceRow(invoice.id)).toMatchObject({ eInvoiceStatus: 'Registered' });
  });

  it('says what is wrong with the command, and changes nothing', async () => {
    const { invoice } = await paidOrder(t);
    const tries: [string[], string][] = [
      [
        ['--number', 'INV/26-27/999999', '--reason', 'other', '--remark', 'x'],
        'No invoice or credit note is numbered INV/26-27/999999',
      ],
      [
        ['--number', invoice.invoiceNumber, '--reason', 'mistake', '--remark', 'x'],
        '--reason must be one of duplicate, data-entry-mistake, order-cancelled, other',
      ],
      [
        ['--number', invoice.invoiceNumber, '--reason', 'other', '--remark', 'x'.repeat(101)],
        'The remark must be 1 to 100 characters',
      ],
      [['--number', invoice.invoiceNumber, '--reason', 'other'], '--remark is required'],
    ];
    for (const [args, message] of tries) {
      await expect(cancel(...args)).rejects.toThrow(message);
    }
    expect(await invoiceRow(invoice.id)).toMatchObject({ eInvoiceStatus: 'Registered' });
  });
});
