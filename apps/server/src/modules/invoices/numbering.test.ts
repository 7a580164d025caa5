import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { documentCounters } from './schema';
import { MAX_DOCUMENT_NUMBER_LENGTH, nextDocumentNumber, shortFinancialYear } from './numbering';
import { paidOrder } from '../../test/invoices';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('invoice numbers (CGST Rule 46)', () => {
  it('run 1, 2 within a financial year and start again at 1 April, India time', async () => {
    t.clock.set(new Date('2027-03-31T18:29:58Z'));
    const first = (await paidOrder(t)).invoice.invoiceNumber;
    t.clock.set(new Date('2027-03-31T18:29:59Z'));
    const second = (await paidOrder(t)).invoice.invoiceNumber;
    // 00:00 on 1 April in India
    t.clock.set(new Date('2027-03-31T18:30:00Z'));
    const third = (await paidOrder(t)).invoice.invoiceNumber;
    expect([first, second, third]).toEqual([
      'INV/26-27/000001',
      'INV/26-27/000002',
      'INV/27-28/000001',
    ]);
    for (const n of [first, second, third]) expect(n.length).toBeLessThanOrEqual(16);
  });

  it('name the financial year by its two years, short enough for 16 characters', () => {
    expect(shortFinancialYear(new Date('2026-03-31T18:29:59Z'))).toBe('25-26');
    expect(shortFinancialYear(new Date('2026-03-31T18:30:00Z'))).toBe('26-27');
    expect(shortFinancialYear(new Date('2099-12-31T00:00:00Z'))).toBe('99-00');
    expect(MAX_DOCUMENT_NUMBER_LENGTH).toBe('INV/26-27/000001'.length);
  });

  it('give a number back when the transaction that took it rolls back', async () => {
    const at = new Date('2030-05-01T06:00:00Z');
    const taken = await t.deps.db.transaction((tx) => nextDocumentNumber(tx, 'CN', at));
    await expect(
      t.deps.db.transaction(async (tx) => {
        await nextDocumentNumber(tx, 'CN', at);
        throw new Error('the settlement failed');
      }),
    ).rejects.toThrow('the settlement failed');
    const next = await t.deps.db.transaction((tx) => nextDocumentNumber(tx, 'CN', at));
    expect([taken, next]).toEqual(['CN/30-31/000001', 'CN/30-31/000002']);
  });

  it('issue no number of seven digits: the series ends at 999999', async () => {
    const at = new Date('2031-05-01T06:00:00Z');
    await t.deps.db.insert(documentCounters).values({ series: 'INV/31-32', lastNumber: 999_998 });
    expect(await t.deps.db.transaction((tx) => nextDocumentNumber(tx, 'INV', at))).toBe(
      'INV/31-32/999999',
    );
    await expect(t.deps.db.transaction((tx) => nextDocumentNumber(tx, 'INV', at))).rejects.toThrow(
      'the INV/31-32 series is exhausted',
    );
  });
});
