import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { billingSnapshotFor, saveBillingDetails } from './service';
import { KARNATAKA, MAHARASHTRA } from '../../test/billing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// a total of ₹12.34 on a base of ₹10.03 with a handling charge of 50 paise: the taxable value is
// 1,003 + 42 paise (the charge less the GST within it, decision 038), so the tax of 189 paise
// is odd, and its halves differ by a paisa
const amounts = { basePaise: 1_003, handlingPaise: 50, totalPaise: 1_234 };
const WITHIN_THE_STATE = { kind: 'CGST+SGST', cgstPaise: 95, sgstPaise: 94, igstPaise: 0 };
const TO_ANOTHER_STATE = { kind: 'IGST', cgstPaise: 0, sgstPaise: 0, igstPaise: 189 };

describe('billingSnapshotFor: the place of supply decides the GST split (seller in Karnataka, 29)', () => {
  it.each([
    { given: 'a Karnataka address', details: KARNATAKA, place: '29', split: WITHIN_THE_STATE },
    { given: 'a Maharashtra address', details: MAHARASHTRA, place: '27', split: TO_ANOTHER_STATE },
    {
      given: 'no address, a GSTIN of Maharashtra',
      gstNo: '27AAPFU0939F1ZV',
      place: '27',
      split: TO_ANOTHER_STATE,
    },
    {
      given: 'no address, a GSTIN of Karnataka',
      gstNo: '29AAACR5055K1Z3',
      place: '29',
      split: WITHIN_THE_STATE,
    },
    // IGST Act, section 12(2): with no valid GSTIN and no address, the supplier's own State
    {
      given: 'no address and no valid GSTIN',
      gstNo: '27AAPFU0939F1ZW',
      place: '29',
      split: WITHIN_THE_STATE,
    },
  ])('places $given in State $place', async ({ details, gstNo, place, split }) => {
    const customer = await createCustomer(t, gstNo ? { gstNo } : {});
    if (details) await saveBillingDetails(t.deps, customer.id, details);
    const snapshot = await billingSnapshotFor(t.deps.db, t.deps.config, customer.id, amounts);
    expect(snapshot).toMatchObject({
      gstin: details?.gstin ?? gstNo,
      placeOfSupply: place,
      supplierStateCode: '29',
      taxSplit: split,
    });
  });
});
