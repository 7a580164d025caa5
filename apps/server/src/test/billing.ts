import type { TestApp } from './app';

/** A Karnataka address with a GSTIN of Karnataka (29), the seller's own State by default. */
export const KARNATAKA = {
  gstin: '29AAACR5055K1Z3',
  addressLine1: '12, 2nd Cross, Indiranagar',
  addressLine2: 'HAL 2nd Stage',
  city: 'Bengaluru',
  stateCode: '29',
  pin: '560038',
} as const;

/** A Maharashtra address with the GSTIN the test customers register with. */
export const MAHARASHTRA = {
  gstin: '27AAPFU0939F1ZV',
  addressLine1: 'Office 4, Baner Road',
  addressLine2: '',
  city: 'Pune',
  stateCode: '27',
  pin: '411045',
} as const;

/** Saves billing details through the API, as the profile's form does. */
export const saveBilling = (t: TestApp, headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/billing-details', headers, payload });
