import { describe, expect, it } from 'vitest';
import { orderAmount } from '@portal/contract';
import { creditAmounts, handlingTaxableOf, invoiceAmounts, splitTax } from './amounts';

describe('the amounts of a tax invoice (decision 038)', () => {
  it('takes the handling charge into the taxable value and keeps the order total', () => {
    const order = orderAmount(4_999_00); // 4,999.00 + 899.82 + 249.95 = 6,148.77
    expect(invoiceAmounts(order, false)).toEqual({
      // 4,999.00 and the charge without its GST: 249.95 / 1.18 = 211.82
      taxablePaise: 5_210_82,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 937_95,
      untaxedPaise: 0,
      totalPaise: 6_148_77,
    });
    // the tax is 18 % of the taxable value, to the paisa
    expect(Math.round(5_210_82 * 0.18)).toBe(937_95);
  });

  it('gives the taxable value of the handling charge: the charge without its GST', () => {
    const order = orderAmount(4_999_00);
    // 249.95 / 1.18 = 211.82, whichever way the tax divides
    expect(handlingTaxableOf(invoiceAmounts(order, false), order.basePaise)).toBe(211_82);
    expect(handlingTaxableOf(invoiceAmounts(order, true), order.basePaise)).toBe(211_82);
  });

  it('splits the tax into CGST and SGST within one state, the odd paisa to CGST', () => {
    const order = orderAmount(1_000_00);
    expect(invoiceAmounts(order, true)).toMatchObject({
      taxablePaise: 1_042_37,
      cgstPaise: 187_63 - 93_81,
      sgstPaise: 93_81,
      igstPaise: 0,
    });
    expect(splitTax(101, true)).toEqual({ cgstPaise: 51, sgstPaise: 50, igstPaise: 0 });
    expect(splitTax(101, false)).toEqual({ cgstPaise: 0, sgstPaise: 0, igstPaise: 101 });
  });
});

describe('the amounts of a credit note', () => {
  const invoice = invoiceAmounts(orderAmount(4_999_00), true);

  it('credits each part of the invoice in proportion to the money refunded', () => {
    const note = creditAmounts(invoice, 0, 1_000_00);
    expect(note).toEqual({
      taxablePaise: 847_46,
      cgstPaise: 76_27,
      sgstPaise: 76_27,
      igstPaise: 0,
      untaxedPaise: 0,
      totalPaise: 1_000_00,
    });
  });

  it('rounds each share half up, and lets the taxable value take what rounding leaves', () => {
    const small = {
      taxablePaise: 100,
      cgstPaise: 9,
      sgstPaise: 9,
      igstPaise: 0,
      untaxedPaise: 0,
      totalPaise: 118,
    };
    expect(creditAmounts(small, 0, 59)).toEqual({
      taxablePaise: 49,
      cgstPaise: 5,
      sgstPaise: 5,
      igstPaise: 0,
      untaxedPaise: 0,
      totalPaise: 59,
    });
  });

  it('adds up to the invoice exactly, whatever the partial refunds before the last', () => {
    const points = [0, 1, 333_33, 3_000_01, invoice.totalPaise - 1, invoice.totalPaise];
    const notes = points.slice(1).map((through, i) => creditAmounts(invoice, points[i]!, through));
    const sum = (key: keyof typeof invoice) => notes.reduce((total, n) => total + n[key], 0);
    for (const key of Object.keys(invoice) as (keyof typeof invoice)[]) {
      expect(sum(key)).toBe(invoice[key]);
    }
    for (const note of notes) {
      expect(note.taxablePaise + note.cgstPaise + note.sgstPaise + note.igstPaise).toBe(
        note.totalPaise,
      );
    }
  });

  it('credits the untaxed handling charge of an invoice issued before decision 038 in proportion', () => {
    const legacy = {
      taxablePaise: 1_000_00,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 180_00,
      untaxedPaise: 50_00,
      totalPaise: 1_230_00,
    };
    expect(creditAmounts(legacy, 0, 615_00)).toEqual({
      taxablePaise: 500_00,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 90_00,
      untaxedPaise: 25_00,
      totalPaise: 615_00,
    });
  });
});
