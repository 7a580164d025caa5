import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingMessages, gstinMessages, gstinStateMismatch } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer, sessionAuth } from '../../test/customers';
import { customers } from '../users/schema';
import { readBillingDetails } from './service';
import { KARNATAKA, saveBilling } from '../../test/billing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function customerWithSession() {
  const customer = await createCustomer(t);
  return { customer, headers: await authHeaders(t, customer.id) };
}

const read = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/billing-details', headers });

const save = (headers: Record<string, string>, payload: object) => saveBilling(t, headers, payload);

describe('GET /api/billing-details', () => {
  it('reads nothing when the customer is gone: their sessions went with their row', async () => {
    const { customer } = await customerWithSession();
    const auth = await sessionAuth(t, customer.id);
    await t.deps.db.delete(customers).where(eq(customers.id, customer.id));
    expect(await readBillingDetails(t.deps, auth)).toEqual({
      screen: undefined,
      session: undefined,
    });
    expect(await readBillingDetails(t.deps, { ...auth, customerId: randomUUID() })).toMatchObject({
      session: undefined,
    });
  });

  it('answers no details yet, with the registered GSTIN and the seller State', async () => {
    const { headers } = await customerWithSession();
    const res = await read(headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Billing details fetched',
      billingDetails: null,
      registeredGstin: '27AAPFU0939F1ZV',
      supplierStateCode: '29',
    });
  });

  it('refuses a request without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/billing-details' });
    expect(res.statusCode).toBe(401);
  });
});

describe('PUT /api/billing-details', () => {
  it('saves the address, reads it back, and takes the GSTIN in capitals without spaces', async () => {
    const { headers } = await customerWithSession();
    const saved = await save(headers, { ...KARNATAKA, gstin: ' 29aaacr5055k1z3 ' });
    expect(saved.statusCode).toBe(200);
    const details = {
      ...KARNATAKA,
      stateName: 'Karnataka',
      updatedAt: t.clock.now().toISOString(),
    };
    expect(saved.json()).toEqual({
      success: true,
      message: 'Billing details saved',
      billingDetails: details,
    });
    expect((await read(headers)).json().billingDetails).toEqual(details);
  });

  it('replaces the details saved before, and keeps no second line when none is given', async () => {
    const { headers } = await customerWithSession();
    await save(headers, KARNATAKA);
    const { addressLine2: _dropped, ...withoutLine2 } = KARNATAKA;
    const res = await save(headers, {
      ...withoutLine2,
      gstin: '27AAPFU0939F1ZV',
      stateCode: '27',
      city: 'Pune',
      pin: '411001',
    });
    expect(res.statusCode).toBe(200);
    expect((await read(headers)).json().billingDetails).toMatchObject({
      gstin: '27AAPFU0939F1ZV',
      addressLine2: null,
      city: 'Pune',
      stateCode: '27',
      stateName: 'Maharashtra',
      pin: '411001',
    });
  });

  const long = (n: number) => 'x'.repeat(n);
  const { gstin: _g, ...noGstin } = KARNATAKA;
  const { addressLine1: _l, ...noLine1 } = KARNATAKA;
  const { city: _c, ...noCity } = KARNATAKA;
  const { stateCode: _s, ...noState } = KARNATAKA;
  const { pin: _p, ...noPin } = KARNATAKA;
  const refusals: [what: string, payload: object, message: string][] = [
    [
      'a GSTIN whose check character is wrong',
      { ...KARNATAKA, gstin: '29AAACR5055K1Z4' },
      `gstin: ${gstinMessages.checkCharacter}`,
    ],
    [
      'a GSTIN of another State than the one chosen',
      { ...KARNATAKA, gstin: '27AAPFU0939F1ZV' },
      `gstin: ${gstinStateMismatch('27', '29')}`,
    ],
    [
      'a GSTIN of the wrong shape',
      { ...KARNATAKA, gstin: '29AAACR5055K1X3' },
      `gstin: ${gstinMessages.format}`,
    ],
    [
      'a GSTIN with an unknown State code',
      { ...KARNATAKA, gstin: '99AAACR5055K1Z3' },
      `gstin: ${gstinMessages.state}`,
    ],
    ['a PIN starting with 0', { ...KARNATAKA, pin: '060038' }, `pin: ${billingMessages.pin}`],
    ['a PIN of five digits', { ...KARNATAKA, pin: '56003' }, `pin: ${billingMessages.pin}`],
    ['a PIN with a letter', { ...KARNATAKA, pin: '56003A' }, `pin: ${billingMessages.pin}`],
    [
      'a State that is not on the list',
      { ...KARNATAKA, stateCode: '25' },
      `stateCode: ${billingMessages.stateRequired}`,
    ],
    [
      'an address line 1 over 100 characters',
      { ...KARNATAKA, addressLine1: long(101) },
      `addressLine1: ${billingMessages.lineTooLong}`,
    ],
    [
      'an address line 2 over 100 characters',
      { ...KARNATAKA, addressLine2: long(101) },
      `addressLine2: ${billingMessages.lineTooLong}`,
    ],
    [
      'a city over 50 characters',
      { ...KARNATAKA, city: long(51) },
      `city: ${billingMessages.cityTooLong}`,
    ],
    ['no GSTIN', noGstin, `gstin: ${billingMessages.gstinRequired}`],
    ['a blank GSTIN', { ...KARNATAKA, gstin: '  ' }, `gstin: ${billingMessages.gstinRequired}`],
    ['no address line 1', noLine1, `addressLine1: ${billingMessages.line1Required}`],
    ['no city', noCity, `city: ${billingMessages.cityRequired}`],
    ['no State', noState, `stateCode: ${billingMessages.stateRequired}`],
    ['no PIN', noPin, `pin: ${billingMessages.pin}`],
    [
      'a line with a control character',
      { ...KARNATAKA, addressLine1: 'Road\u0000 1' },
      'addressLine1: must be plain text, without control characters',
    ],
  ];

  it.each(refusals)(
    'refuses %s with a 400 that names the field, and keeps what was saved',
    async (_what, payload, message) => {
      const { headers } = await customerWithSession();
      const before = (await save(headers, KARNATAKA)).json().billingDetails;
      t.clock.advance(60_000);
      const res = await save(headers, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message });
      expect((await read(headers)).json().billingDetails).toEqual(before);
    },
  );

  it("changes only the signed-in customer's own details", async () => {
    const a = await customerWithSession();
    const b = await customerWithSession();
    await save(a.headers, KARNATAKA);
    await save(b.headers, { ...KARNATAKA, city: 'Mysuru', pin: '570001' });
    expect((await read(a.headers)).json().billingDetails).toMatchObject({ city: 'Bengaluru' });
    expect((await read(b.headers)).json().billingDetails).toMatchObject({ city: 'Mysuru' });
  });

  it('refuses a request without a session and saves nothing', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/billing-details',
      payload: KARNATAKA,
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('the billing details calls on an app of their own', () => {
  // built inside the test, not in beforeAll: a route's handler is chosen as the app is built, and
  // mutation testing runs only the tests that were running then (docs/testing.md)
  it('saves the details and reads them back', async () => {
    const own = await createTestApp();
    try {
      const customer = await createCustomer(own);
      const headers = await authHeaders(own, customer.id);
      const saved = await saveBilling(own, headers, KARNATAKA);
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({ billingDetails: { city: 'Bengaluru' } });
      const res = await own.app.inject({ method: 'GET', url: '/api/billing-details', headers });
      expect(res.json()).toMatchObject({
        success: true,
        billingDetails: { gstin: KARNATAKA.gstin, stateCode: '29' },
        registeredGstin: '27AAPFU0939F1ZV',
        supplierStateCode: '29',
      });
    } finally {
      await own.close();
    }
  });
});
