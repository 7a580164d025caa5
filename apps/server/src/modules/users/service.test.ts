import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { getUser } from '../auth/profile';
import { findCustomerByEmail, insertCustomer } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const profile = {
  mobile: '9876501234',
  gstNo: '27AAPFU0939F1ZV',
  tallySerialNo: '700999001',
  companyName: 'Typed Company',
  category: 'Retail',
  tallyVersion: 'TallyPrime 5.1',
  passwordHash: 'not used here',
};

describe('customer look-ups', () => {
  // support types addresses by hand on the command line, where no request schema tidies them
  it('find a customer by an address typed in capitals with spaces around it', async () => {
    const customer = await createCustomer(t);
    const found = await findCustomerByEmail(t.deps.db, `  ${customer.email.toUpperCase()} `);
    expect(found?.id).toBe(customer.id);
  });

  it('store a new address trimmed and in lower case, and refuse it a second time', async () => {
    const created = await insertCustomer(t.deps.db, {
      ...profile,
      email: ' Typed.Person@Example.TEST ',
    });
    expect(created.email).toBe('typed.person@example.test');
    await expect(
      insertCustomer(t.deps.db, { ...profile, email: 'TYPED.person@example.test' }),
    ).rejects.toMatchObject({
      statusCode: 409,
      message: 'A customer with e-mail typed.person@example.test already exists.',
    });
  });

  it('answer 401 for the profile of a customer who no longer exists', async () => {
    await expect(
      getUser(t.deps.db, t.clock, '00000000-0000-4000-8000-000000000000'),
    ).rejects.toMatchObject({ statusCode: 401, message: 'Unauthorized access. Please log in.' });
  });
});
