import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyMessages, privacyPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { recordActivity } from '../activity/record';
import { activityEvents } from '../activity/schema';
import { createTestPartner, decideAtBank, requestTestConsent } from '../consents/testing';
import { consents } from '../consents/schema';
import { invoices } from '../invoices/schema';
import { buyer } from '../payments/test-support';
import { customers } from '../users/schema';
import { accountClosures } from './schema';
import { TOMBSTONE_NAME, tombstoneEmail } from './close-account';
import { codeMailedTo, post } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const rowOf = async (id: string) =>
  (await t.deps.db.select().from(customers).where(eq(customers.id, id)))[0]!;
const profile = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/api/auth/profile', headers });

async function askCode(customer: { id: string; email: string }, headers: Record<string, string>) {
  expect((await post(t, privacyPaths.closeAccountCode, headers)).statusCode).toBe(200);
  return codeMailedTo(t, customer.email);
}

describe('POST /api/privacy/close-account', () => {
  it('changes nothing with a wrong password or a wrong code', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const code = await askCode(customer, headers);
    const wrongCode = code === '000000' ? '111111' : '000000';

    const badPassword = await post(t, privacyPaths.closeAccount, headers, {
      password: 'Not the password',
      code,
    });
    expect(badPassword.statusCode).toBe(400);
    expect(badPassword.json().message).toBe(privacyMessages.wrongPassword);
    const badCode = await post(t, privacyPaths.closeAccount, headers, {
      password: customer.password,
      code: wrongCode,
    });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().message).toBe(privacyMessages.wrongCode);

    expect(await rowOf(customer.id)).toMatchObject({
      email: customer.email,
      companyName: customer.companyName,
      mobile: customer.mobile,
    });
    expect((await profile(headers)).statusCode).toBe(200);
  });

  it.each([
    ['no body', undefined],
    ['a code of letters', { password: 'x', code: 'abcdef' }],
    ['no password', { code: '123456' }],
  ])('refuses %s with a 400', async (_what, payload) => {
    const customer = await createCustomer(t);
    const res = await post(
      t,
      privacyPaths.closeAccount,
      await authHeaders(t, customer.id),
      payload,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it('ends every session at once, revokes consents, erases personal data and keeps invoices', async () => {
    const b = await buyer(t);
    const { checkoutPath } = await b.pay(await b.order());
    await b.checkout(checkoutPath, 'pay');
    const customer = b.customer;
    const headers = b.headers;
    const other = await authHeaders(t, customer.id);
    const partner = await createTestPartner(t);
    const consent = await requestTestConsent(t, partner.apiKey, customer.id);
    await decideAtBank(t, consent.consentId, 'authorise');
    await recordActivity(t.deps.db, t.clock, {
      customerId: customer.id,
      type: 'password_changed',
      title: 'Password changed',
      description: `Changed by ${customer.email}`,
      status: 'success',
    });
    const invoicesBefore = await t.deps.db
      .select()
      .from(invoices)
      .where(eq(invoices.customerId, customer.id));
    expect(invoicesBefore.length).toBeGreaterThan(0);

    const code = await askCode(customer, headers);
    const res = await post(t, privacyPaths.closeAccount, headers, {
      password: customer.password,
      code,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(privacyMessages.closed);

    expect((await profile(headers)).statusCode).toBe(401);
    expect((await profile(other)).statusCode).toBe(401);
    const [revoked] = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.consentId, consent.consentId));
    expect(revoked!.status).toBe('Revoked');
    expect(revoked!.accessTokenEnc).toBeNull();

    const row = await rowOf(customer.id);
    expect(row).toMatchObject({
      email: tombstoneEmail(customer.id),
      companyName: TOMBSTONE_NAME,
      mobile: '',
      tallySerialNo: '',
    });
    const stored = JSON.stringify(row);
    for (const personal of [customer.email, customer.companyName, customer.mobile]) {
      expect(stored).not.toContain(personal);
    }
    expect(
      await t.deps.db
        .select()
        .from(activityEvents)
        .where(eq(activityEvents.customerId, customer.id)),
    ).toEqual([]);
    const [closure] = await t.deps.db
      .select()
      .from(accountClosures)
      .where(eq(accountClosures.customerId, customer.id));
    expect(closure!.keepTaxRecordsUntil.getUTCFullYear() - closure!.closedAt.getUTCFullYear()).toBe(
      6,
    );
    expect(
      await t.deps.db.select().from(invoices).where(eq(invoices.customerId, customer.id)),
    ).toEqual(invoicesBefore);

    // the tombstone cannot sign in, and a second request is answered clearly
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: {
        email: row.email,
        mobile: '9800000000',
        gstNo: row.gstNo,
        tally_serialno: '1',
        password: customer.password,
      },
    });
    expect(login.statusCode).toBe(401);
    const again = await post(t, privacyPaths.closeAccountCode, await authHeaders(t, customer.id));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(privacyMessages.alreadyClosed);
  });

  it('refuses a code asked for again within a minute', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    await askCode(customer, headers);
    const res = await post(t, privacyPaths.closeAccountCode, headers);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(privacyMessages.waitForCode);
  });
});
