import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { createTestPartner, requestTestConsent } from '../../modules/consents/testing';
import { sandboxBankAuthorization } from './routes';
import { sandboxBankAccesses, sandboxBankConsents } from './schema';
import { authoriseBankConsent, createBankConsent, findBankConsent } from './service';
import { BankErrorSchema } from '../../adapters/bank-wire';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
/** The sandbox bank's own client credentials, as a browser sends them after the prompt. */
const signedIn = () => ({ authorization: sandboxBankAuthorization(t.deps.consents.sandboxBank!) });
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('the sandbox bank page', () => {
  it('lists pending requests with authorise and reject forms, and no script', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const consent = await requestTestConsent(t, apiKey, customer.id);
    const res = await t.app.inject({ method: 'GET', url: '/sandbox/bank', headers: signedIn() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain(consent.consentId);
    expect(res.body).toContain(`/sandbox/bank/consents/${consent.consentId}/authorise`);
    expect(res.body).not.toMatch(/<script|on(click|submit|load)=/i);
  });

  it('authorises from the form and says so on the page it returns to', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const consent = await requestTestConsent(t, apiKey, customer.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/sandbox/bank/consents/${consent.consentId}/authorise`,
      headers: { ...form, ...signedIn() },
      payload: '',
    });
    expect(res.statusCode).toBe(303);
    const page = await t.app.inject({
      method: 'GET',
      url: res.headers.location!,
      headers: signedIn(),
    });
    expect(page.body).toContain(`Consent ${consent.consentId} authorised.`);
    expect((await findBankConsent(t.deps.db, consent.consentId))!.status).toBe('Authorised');

    // deciding twice changes nothing
    const again = await t.app.inject({
      method: 'POST',
      url: `/sandbox/bank/consents/${consent.consentId}/reject`,
      headers: { ...form, ...signedIn() },
      payload: '',
    });
    expect(again.headers.location).toContain('result=decided');
    expect((await findBankConsent(t.deps.db, consent.consentId))!.status).toBe('Authorised');
  });

  it('escapes what it shows', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/sandbox/bank?result=missing&consent=%3Cimg%20src%3Dx%3E',
      headers: signedIn(),
    });
    expect(res.body).toContain('&lt;img src=x&gt;');
    expect(res.body).not.toContain('<img src=x>');
  });

  it('will not authorise a request past its expiry time', async () => {
    const bank = await createBankConsent(t.deps.db, t.clock, {
      clientId: t.deps.consents.sandboxBank!.clientId,
      permissions: ['ReadBalances'],
      expirationDateTime: new Date(t.clock.now().getTime() + 60_000),
    });
    t.clock.advance(60_000);
    const res = await t.app.inject({
      method: 'POST',
      url: `/sandbox/bank/consents/${bank.consentId}/authorise`,
      headers: { ...form, ...signedIn() },
      payload: '',
    });
    expect(res.headers.location).toContain('result=decided');
    expect((await findBankConsent(t.deps.db, bank.consentId))!.status).toBe(
      'AwaitingAuthorisation',
    );
  });

  it('lists nothing and decides nothing without the sandbox bank credentials', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const consent = await requestTestConsent(t, apiKey, customer.id);
    const { clientId } = t.deps.consents.sandboxBank!;
    for (const headers of [{}, { authorization: basic(clientId, 'not-the-secret') }]) {
      const page = await t.app.inject({ method: 'GET', url: '/sandbox/bank', headers });
      expect(page.statusCode).toBe(401);
      // the browser asks for them, and the prompt's page says where they are
      expect(page.headers['www-authenticate']).toBe('Basic realm="Sandbox Bank", charset="UTF-8"');
      expect(page.body).toContain('sandboxBankClientSecret');
      expect(page.body).not.toContain(consent.consentId);
      for (const decision of ['authorise', 'reject']) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/sandbox/bank/consents/${consent.consentId}/${decision}`,
          headers: { ...form, ...headers },
          payload: '',
        });
        expect(res.statusCode).toBe(401);
      }
    }
    expect((await findBankConsent(t.deps.db, consent.consentId))!.status).toBe(
      'AwaitingAuthorisation',
    );
  });
});

describe('the sandbox bank API', () => {
  it('refuses calls without the client credentials', async () => {
    const none = await t.app.inject({
      method: 'POST',
      url: '/sandbox/bank/account-access-consents',
      payload: { Data: { Permissions: ['ReadBalances'] } },
    });
    expect(none.statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/sandbox/bank/account-access-consents/x',
      headers: { authorization: basic('customer-portal', 'wrong') },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('answers a malformed request with 400 in its own error format', async () => {
    const { clientId, clientSecret } = t.deps.consents.sandboxBank!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/sandbox/bank/account-access-consents',
      headers: { authorization: basic(clientId, clientSecret) },
      payload: { Data: { Permissions: [] } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ Code: '400 BadRequest' });
  });
});

describe('the sandbox bank API, given text or times no store keeps', () => {
  const client = () => {
    const { clientId, clientSecret } = t.deps.consents.sandboxBank!;
    return { authorization: basic(clientId, clientSecret) };
  };
  const create = (Data: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/sandbox/bank/account-access-consents',
      headers: client(),
      payload: { Data: { Permissions: ['ReadAccountsBasic', 'ReadTransactionsBasic'], ...Data } },
    });
  const consents = async () => (await t.deps.db.select().from(sandboxBankConsents)).length;
  const refusedAs400 = (res: { statusCode: number; json(): unknown }, field: string) => {
    expect(res.statusCode, field).toBe(400);
    expect(BankErrorSchema.parse(res.json()), field).toMatchObject({
      Code: '400 BadRequest',
      Message: expect.stringContaining(field),
      Errors: [{ ErrorCode: 'UK.OBIE.BadRequest', Message: expect.stringContaining(field) }],
    });
  };

  it('refuses a NUL in a permission or the purpose, and keeps no consent', async () => {
    const before = await consents();
    refusedAs400(await create({ Permissions: ['ReadAccounts\u0000Basic'] }), 'Permissions.0');
    refusedAs400(await create({ Purpose: 'Books\u0000' }), 'Purpose');
    expect(await consents()).toBe(before);
  });

  it('refuses year 0 in any date and time of a new consent, and keeps no consent', async () => {
    const before = await consents();
    for (const field of [
      'ExpirationDateTime',
      'TransactionFromDateTime',
      'TransactionToDateTime',
    ] as const) {
      refusedAs400(await create({ [field]: '0000-01-01T00:00:00Z' }), field);
    }
    expect(await consents()).toBe(before);
  });

  it('refuses year 0 as a bound of the transactions read, and records no read', async () => {
    const created = await create({});
    expect(created.statusCode).toBe(201);
    const consentId = (created.json() as { Data: { ConsentId: string } }).Data.ConsentId;
    await authoriseBankConsent(t.deps.db, t.clock, consentId);
    for (const name of ['fromBookingDateTime', 'toBookingDateTime']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/sandbox/bank/account-access-consents/${consentId}/transactions?${name}=0000-01-01T00:00:00Z`,
        headers: client(),
      });
      refusedAs400(res, name);
    }
    const reads = await t.deps.db
      .select()
      .from(sandboxBankAccesses)
      .where(eq(sandboxBankAccesses.consentId, consentId));
    expect(reads).toEqual([]);
  });
});

describe('PATCH /sandbox/bank/account-access-consents/:consentId', () => {
  const patch = (consentId: string, payload: unknown, authorization = signedIn().authorization) =>
    t.app.inject({
      method: 'PATCH',
      url: `/sandbox/bank/account-access-consents/${consentId}`,
      headers: { authorization },
      payload: payload as Record<string, unknown>,
    });
  const paused = { Data: { Status: 'Paused' } };

  it('pauses an authorised consent and resumes it, answering the consent with its tokens', async () => {
    const made = await createBankConsent(t.deps.db, t.clock, {
      clientId: t.deps.consents.sandboxBank!.clientId,
      permissions: ['ReadAccountsBasic'],
      dataLifeDays: 7,
    });
    await authoriseBankConsent(t.deps.db, t.clock, made.consentId);
    const res = await patch(made.consentId, paused);
    expect(res.statusCode).toBe(200);
    expect(res.json().Data).toMatchObject({
      Status: 'Paused',
      DataLife: { Unit: 'DAY', Value: 7 },
      Tokens: { AccessToken: expect.any(String) },
    });
    // asking again answers the same
    expect((await patch(made.consentId, paused)).json().Data.Status).toBe('Paused');
    const resumed = await patch(made.consentId, { Data: { Status: 'Authorised' } });
    expect(resumed.json().Data.Status).toBe('Authorised');
  });

  it('refuses a consent that is not authorised, an unknown one, a stranger and a bad body', async () => {
    const made = await createBankConsent(t.deps.db, t.clock, {
      clientId: t.deps.consents.sandboxBank!.clientId,
      permissions: ['ReadAccountsBasic'],
    });
    const waiting = await patch(made.consentId, paused);
    expect(waiting.statusCode).toBe(409);
    expect(BankErrorSchema.parse(waiting.json()).Message).toBe(
      `Consent ${made.consentId} is AwaitingAuthorisation: it cannot be made Paused`,
    );
    expect((await patch('sbk-intent-unknown', paused)).statusCode).toBe(404);
    expect((await patch(made.consentId, paused, basic('someone', 'else'))).statusCode).toBe(401);
    const bad = await patch(made.consentId, { Data: { Status: 'Revoked' } });
    expect(bad.statusCode).toBe(400);
    expect((await findBankConsent(t.deps.db, made.consentId))!.status).toBe(
      'AwaitingAuthorisation',
    );
  });
});
