import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { KARNATAKA, MAHARASHTRA, saveBilling } from '../../test/billing';
import { buyer } from '../../test/payments';
import { orderBillingSnapshot } from './orders';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// a base of ₹10.03 gives a total of ₹12.34 (GST 181 paise, handling 50); the invoice's taxable
// value is 1,003 + 42 (the handling charge less the GST within it, decision 038), so its tax is
// 189 paise, an odd number to split in two
const plan = { amountPaise: 1_003 };

describe('POST /api/orders keeps the billing snapshot', () => {
  it('splits the GST of an order within the seller State into CGST and SGST, to the paisa', async () => {
    const b = await buyer(t, plan);
    await saveBilling(t, b.headers, KARNATAKA);
    const orderId = await b.order();
    expect(await orderBillingSnapshot(t.deps.db, orderId)).toEqual({
      gstin: KARNATAKA.gstin,
      address: {
        addressLine1: KARNATAKA.addressLine1,
        addressLine2: KARNATAKA.addressLine2,
        city: KARNATAKA.city,
        stateCode: '29',
        pin: KARNATAKA.pin,
      },
      placeOfSupply: '29',
      supplierStateCode: '29',
      taxSplit: { kind: 'CGST+SGST', cgstPaise: 95, sgstPaise: 94, igstPaise: 0 },
    });
  });

  it('charges the whole GST as IGST on an order to another State', async () => {
    const b = await buyer(t, plan);
    await saveBilling(t, b.headers, MAHARASHTRA);
    const orderId = await b.order();
    expect(await orderBillingSnapshot(t.deps.db, orderId)).toMatchObject({
      gstin: MAHARASHTRA.gstin,
      address: { city: 'Pune', stateCode: '27', addressLine2: null },
      placeOfSupply: '27',
      supplierStateCode: '29',
      taxSplit: { kind: 'IGST', cgstPaise: 0, sgstPaise: 0, igstPaise: 189 },
    });
  });

  it('takes the seller State from the GSTIN the invoices are issued under', async () => {
    const other = await createTestApp({ env: { INVOICE_SUPPLIER_GSTIN: '27AAACR5055K1Z7' } });
    try {
      const b = await buyer(other, plan);
      await saveBilling(other, b.headers, MAHARASHTRA);
      const orderId = await b.order();
      expect(await orderBillingSnapshot(other.deps.db, orderId)).toMatchObject({
        placeOfSupply: '27',
        supplierStateCode: '27',
        taxSplit: { kind: 'CGST+SGST', cgstPaise: 95, sgstPaise: 94, igstPaise: 0 },
      });
    } finally {
      await other.close();
    }
  });

  it('keeps the snapshot of a past order when the customer edits the billing details', async () => {
    const b = await buyer(t, plan);
    await saveBilling(t, b.headers, MAHARASHTRA);
    const orderId = await b.order();
    const before = await orderBillingSnapshot(t.deps.db, orderId);
    const edited = await saveBilling(t, b.headers, KARNATAKA);
    expect(edited.statusCode).toBe(200);
    expect(await orderBillingSnapshot(t.deps.db, orderId)).toEqual(before);
    // the next order takes the edited details
    const next = await b.order();
    expect(await orderBillingSnapshot(t.deps.db, next)).toMatchObject({
      gstin: KARNATAKA.gstin,
      placeOfSupply: '29',
    });
  });

  it('places an order without an address in the State of the registered GSTIN', async () => {
    const b = await buyer(t, plan);
    const orderId = await b.order();
    expect(await orderBillingSnapshot(t.deps.db, orderId)).toEqual({
      gstin: '27AAPFU0939F1ZV',
      address: null,
      placeOfSupply: '27',
      supplierStateCode: '29',
      taxSplit: { kind: 'IGST', cgstPaise: 0, sgstPaise: 0, igstPaise: 189 },
    });
  });

  it("places an order in the seller's State when the registered GST number is no valid GSTIN", async () => {
    const b = await buyer(t, plan, { gstNo: '27AAPFU0939F1ZW' });
    const orderId = await b.order();
    expect(await orderBillingSnapshot(t.deps.db, orderId)).toMatchObject({
      gstin: '27AAPFU0939F1ZW',
      address: null,
      placeOfSupply: '29',
      taxSplit: { kind: 'CGST+SGST', cgstPaise: 95, sgstPaise: 94, igstPaise: 0 },
    });
  });

  it('uses the billing details of the customer who orders, not of another', async () => {
    const a = await buyer(t, plan);
    const b = await buyer(t, plan);
    await saveBilling(t, a.headers, KARNATAKA);
    await saveBilling(t, b.headers, MAHARASHTRA);
    const orderId = await b.order();
    expect(await orderBillingSnapshot(t.deps.db, orderId)).toMatchObject({
      gstin: MAHARASHTRA.gstin,
      placeOfSupply: '27',
    });
  });

  it('answers no snapshot for an id that is no order', async () => {
    expect(await orderBillingSnapshot(t.deps.db, 'not-an-id')).toBeNull();
    expect(
      await orderBillingSnapshot(t.deps.db, '00000000-0000-4000-8000-000000000000'),
    ).toBeNull();
  });
});
