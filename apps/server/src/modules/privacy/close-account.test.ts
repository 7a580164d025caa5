import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privacyMessages, privacyPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { recordActivity } from '../activity/record';
import { activityEvents } from '../activity/schema';
import {
  createTestPartner,
  decideAtBank,
  partnerRequest,
  requestTestConsent,
} from '../consents/testing';
import { consentAccesses, consents } from '../consents/schema';
import { invoices } from '../invoices/schema';
import { orders } from '../purchases/schema';
import { paymentEvents } from '../purchases/schema';
import { buyer, withBusyGateway } from '../../test/payments';
import { customers } from '../users/schema';
import { accountClosures } from './schema';
import { TOMBSTONE_NAME, tombstoneEmail } from './close-account';
import { countCustomerRows, findCustomerTables, KEPT_ON_CLOSING } from './customer-tables';
import { closeAccountOf, codeMailedTo, consentsOfEveryStatus, post } from '../../test/privacy';

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
  const mail = (await t.outbox()).filter((m) => m.to === customer.email).at(-1);
  expect(mail?.text).toContain('within 10 minutes to close your account');
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
    // drawn first: the draw job would otherwise set drawn_at between the two reads
    await t.drawDocuments();
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
    // a partner cannot attach a new consent to the closed account
    const late = await partnerRequest(t, partner.apiKey, { customerId: customer.id });
    expect(late.statusCode).toBe(404);
    expect(late.json().message).toBe('Customer not found');

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
    // closed on 01/06/2026, in the financial year 2026-27, whose annual return is due on
    // 31/12/2027: its records are kept 72 months from then, to the end of 31/12/2033 in India
    expect(closure!.closedAt).toEqual(t.clock.now());
    expect(closure!.keepTaxRecordsUntil).toEqual(new Date('2034-01-01T00:00:00+05:30'));
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

  it('erases every consent whatever its status, its document and its reads, and every table it does not keep', async () => {
    const b = await buyer(t);
    const { checkoutPath } = await b.pay(await b.order());
    await b.checkout(checkoutPath, 'pay');
    const customer = b.customer;
    const { consentIds } = await consentsOfEveryStatus(t, customer.id);
    // in the order made: Pending, Approved, Rejected, Expired, Revoked
    const consentRows = async () =>
      (await t.deps.db.select().from(consents).where(inArray(consents.consentId, consentIds))).sort(
        (a, b) => consentIds.indexOf(a.consentId) - consentIds.indexOf(b.consentId),
      );
    const readsOf = (rows: { id: string }[]) =>
      t.deps.db
        .select()
        .from(consentAccesses)
        .where(
          inArray(
            consentAccesses.consentRef,
            rows.map((row) => row.id),
          ),
        );
    const before = await consentRows();
    expect(before.map((row) => row.status)).toEqual([
      'Pending',
      'Approved',
      'Rejected',
      'Expired',
      'Revoked',
    ]);
    // the revoked one lost its document when the customer deleted it
    const documents = before.flatMap((row) => (row.documentKey ? [row.documentKey] : []));
    expect(documents).toHaveLength(4);
    for (const key of documents) expect(await t.deps.files.read(key)).not.toBeNull();
    expect(await readsOf(before)).toHaveLength(1);

    expect((await closeAccountOf(t, customer)).statusCode).toBe(200);

    const after = await consentRows();
    // the live ones revoked at the bank, the others as they were
    expect(after.map((row) => row.status)).toEqual([
      'Revoked',
      'Revoked',
      'Rejected',
      'Expired',
      'Revoked',
    ]);
    for (const row of after) {
      expect(row).toMatchObject({
        netBankingUserId: null,
        accounts: [],
        purpose: null,
        transactionFrom: null,
        transactionTo: null,
        documentKey: null,
        accessTokenEnc: null,
        accessTokenExpiresAt: null,
        refreshTokenEnc: null,
        refreshTokenExpiresAt: null,
        reconnectRequestedAt: null,
      });
    }
    const stored = JSON.stringify(after);
    for (const row of before) {
      for (const personal of [row.netBankingUserId!, row.purpose!, ...row.accounts]) {
        expect(stored).not.toContain(personal);
      }
    }
    for (const key of documents) expect(await t.deps.files.read(key)).toBeNull();
    expect(await readsOf(after)).toEqual([]);

    // the order keeps what the invoice states, not who paid; the gateway's events keep no payload
    const [order] = await t.deps.db.select().from(orders).where(eq(orders.customerId, customer.id));
    expect(order).toMatchObject({
      status: 'Completed',
      customerName: null,
      customerEmail: null,
      customerPhone: null,
    });
    const events = await t.deps.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.orderId, order!.id));
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.payload).toEqual({});

    const tables = await findCustomerTables(t.deps.db);
    for (const table of tables.keys()) {
      if (table in KEPT_ON_CLOSING) continue;
      expect(await countCustomerRows(t.deps.db, tables, table, customer), table).toBe(0);
    }
  });

  it('cancels the payment link of a Pending order at the gateway, so that it takes no money once closed', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { linkId, checkoutPath } = await b.pay(orderId);
    expect((await closeAccountOf(t, b.customer)).statusCode).toBe(200);
    expect((await t.deps.payments.gateway.fetchPaymentLink(linkId)).status).toBe('cancelled');
    // pressing Pay on the gateway's page afterwards takes nothing
    await t.app.inject({
      method: 'POST',
      url: `${checkoutPath}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect((await t.deps.payments.gateway.fetchPaymentLink(linkId)).status).toBe('cancelled');
    const [order] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).not.toBe('Completed');
  });

  it('changes nothing, and may be asked again, while the gateway cannot be reached', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { linkId } = await b.pay(orderId);
    const headers = await authHeaders(t, b.customer.id);
    expect((await post(t, privacyPaths.closeAccountCode, headers)).statusCode).toBe(200);
    const code = await codeMailedTo(t, b.customer.email);
    await withBusyGateway(t, async () => {
      const refused = await post(t, privacyPaths.closeAccount, headers, {
        password: b.customer.password,
        code,
      });
      expect(refused.statusCode).toBe(502);
      expect(refused.json().message).toBe(
        'Your pending payment could not be cancelled at the payment gateway. Please try again in a few minutes.',
      );
    });
    const [still] = await t.deps.db.select().from(customers).where(eq(customers.id, b.customer.id));
    expect(still?.email).toBe(b.customer.email);
    expect((await t.deps.payments.gateway.fetchPaymentLink(linkId)).status).toBe('created');

    const again = await post(t, privacyPaths.closeAccount, headers, {
      password: b.customer.password,
      code,
    });
    expect(again.statusCode).toBe(200);
    expect((await t.deps.payments.gateway.fetchPaymentLink(linkId)).status).toBe('cancelled');
  });

  it('takes a code a second before its 10 minutes are up, and refuses it once they are', async () => {
    const late = await createCustomer(t);
    const lateHeaders = await authHeaders(t, late.id);
    const lateCode = await askCode(late, lateHeaders);
    t.clock.advance(10 * 60_000);
    const refused = await post(t, privacyPaths.closeAccount, lateHeaders, {
      password: late.password,
      code: lateCode,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(privacyMessages.wrongCode);
    expect((await rowOf(late.id)).email).toBe(late.email);
    expect((await profile(lateHeaders)).statusCode).toBe(200);

    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const code = await askCode(customer, headers);
    t.clock.advance(10 * 60_000 - 1000);
    const closed = await post(t, privacyPaths.closeAccount, headers, {
      password: customer.password,
      code,
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await rowOf(customer.id)).email).toBe(tombstoneEmail(customer.id));
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
