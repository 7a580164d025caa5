import { describe, expect, it } from 'vitest';
import { orderSubmitError, planAmounts } from './order-rules';

const filled = { planId: 'p1', customerName: 'Acme', email: 'a@example.test', phone: '98' };

describe('orderSubmitError', () => {
  it("checks plan, name, e-mail and phone in the spec's order", () => {
    expect(orderSubmitError({ planId: null, customerName: '', email: '', phone: '' })).toEqual({
      field: 'planId',
      message: 'Please select a plan',
    });
    expect(orderSubmitError({ ...filled, customerName: '  ', email: '' })?.message).toBe(
      'Customer name is required',
    );
    expect(orderSubmitError({ ...filled, email: ' ', phone: '' })?.message).toBe(
      'Email is required',
    );
    expect(orderSubmitError({ ...filled, phone: '' })?.message).toBe('Phone number is required');
    // no format check beyond the browser's e-mail input
    expect(orderSubmitError({ ...filled, email: 'not-an-email', phone: 'x' })).toBeNull();
  });
});

describe('planAmounts', () => {
  it('uses the money rule of the contract, to the paisa', () => {
    expect(
      planAmounts({
        _id: 'p',
        planName: 'P',
        planType: 'Single',
        noOfCompany: 1,
        duration: 30,
        amount: 3.33,
        createdDate: '',
      }),
    ).toEqual({ base: 3.33, gst: 0.6, handling: 0.17, total: 4.1 });
  });
});
