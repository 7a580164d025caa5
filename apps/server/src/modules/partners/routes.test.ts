import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { createHttpConsentProvider } from '../../adapters/consent-provider';
import { activityEvents } from '../activity/schema';
import { consents } from '../consents/schema';
import { createTestPartner, partnerRequest, requestTestConsent } from '../consents/testing';
import { sandboxBankConsents } from '../../sandbox/bank/schema';
import { partners } from './schema';
import { hashApiKey, revokePartner } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PDF = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj<<>>endobj\n%%EOF');
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(32),
]);

describe('partner API keys', () => {
  it('stores only the hash of a key', async () => {
    const { partner, apiKey } = await createTestPartner(t);
    const [row] = await t.deps.db.select().from(partners).where(eq(partners.id, partner.id));
    expect(row!.apiKeyHash).toBe(hashApiKey(apiKey));
    expect(JSON.stringify(row)).not.toContain(apiKey);
    expect(apiKey.startsWith(row!.apiKeyPrefix)).toBe(true);
  });

  it('refuses a request without a key, with an unknown key, and with a revoked key', async () => {
    const customer = await createCustomer(t);
    const noKey = await t.app.inject({
      method: 'POST',
      url: '/api/partner/consents',
      payload: { customerId: customer.id },
    });
    expect(noKey.statusCode).toBe(401);
    expect(noKey.json()).toMatchObject({
      success: false,
      message: expect.stringContaining('X-Api-Key'),
    });

    const unknown = await partnerRequest(t, 'ptk_' + 'a'.repeat(43), { customerId: customer.id });
    expect(unknown.statusCode).toBe(401);

    const { partner, apiKey } = await createTestPartner(t);
    expect((await partnerRequest(t, apiKey, { customerId: customer.id })).statusCode).toBe(201);
    await revokePartner(t.deps.db, t.clock, partner.partnerId);
    const revoked = await partnerRequest(t, apiKey, { customerId: customer.id });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().message).toBe('The API key is not valid');
  });

  it('does not accept a customer bearer token in place of a key', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/partner/consents/anything',
      headers: { authorization: 'Bearer abc' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/partner/consents', () => {
  it('creates a consent at the bank for a customer named by e-mail and stores it Pending', async () => {
    const customer = await createCustomer(t);
    const { partner, apiKey } = await createTestPartner(t, 'LedgerSync');
    const res = await partnerRequest(t, apiKey, {
      customerEmail: customer.email.toUpperCase(),
      permissions: ['ReadAccountsBasic', 'ReadBalances'],
      netBankingUserId: 'ACME0001',
    });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      consentStatus: 'Pending',
      customerId: customer.id,
      partnerId: partner.partnerId,
      apiList: ['ReadAccountsBasic', 'ReadBalances'],
      documentUploaded: 'N',
    });
    const [bank] = await t.deps.db
      .select()
      .from(sandboxBankConsents)
      .where(eq(sandboxBankConsents.consentId, data.consentId));
    expect(bank!.status).toBe('AwaitingAuthorisation');
    const events = await t.deps.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.customerId, customer.id));
    expect(events.map((e) => e.type)).toEqual(['consent_requested']);
  });

  it('asks for the default permissions when none are named', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const consent = await requestTestConsent(t, apiKey, customer.id);
    expect(consent.apiList).toContain('ReadBalances');
  });

  it('answers 404 for an unknown customer and 400 for a request naming none or both', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    expect(
      (await partnerRequest(t, apiKey, { customerEmail: 'nobody@example.test' })).statusCode,
    ).toBe(404);
    expect((await partnerRequest(t, apiKey, {})).statusCode).toBe(400);
    const both = await partnerRequest(t, apiKey, {
      customerEmail: customer.email,
      customerId: customer.id,
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().success).toBe(false);
    const past = await partnerRequest(t, apiKey, {
      customerId: customer.id,
      expirationDateTime: '2020-01-01T00:00:00Z',
    });
    expect(past.statusCode).toBe(400);
  });

  it('returns the first consent again for a repeated requestId', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const first = await partnerRequest(t, apiKey, { customerId: customer.id, requestId: 'req-1' });
    const again = await partnerRequest(t, apiKey, { customerId: customer.id, requestId: 'req-1' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.consentId).toBe(first.json().data.consentId);
    const rows = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.customerId, customer.id));
    expect(rows).toHaveLength(1);
  });

  it('keeps an uploaded PDF or PNG in the file store and marks documentUploaded', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    for (const file of [PDF, PNG]) {
      const consent = await requestTestConsent(t, apiKey, customer.id, {
        document: { fileName: 'mandate.bin', contentBase64: file.toString('base64') },
      });
      expect(consent.documentUploaded).toBe('Y');
      const [row] = await t.deps.db
        .select()
        .from(consents)
        .where(eq(consents.consentId, consent.consentId));
      expect(await t.deps.files.read(row!.documentKey!)).toEqual(file);
    }
  });

  it('refuses a document of another type, whatever its name says, and stores nothing', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const res = await partnerRequest(t, apiKey, {
      customerId: customer.id,
      document: {
        fileName: 'mandate.pdf',
        contentBase64: Buffer.from('MZ\x90\x00 exe').toString('base64'),
      },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('document must be a PDF, PNG or JPEG file');
    const notBase64 = await partnerRequest(t, apiKey, {
      customerId: customer.id,
      document: { fileName: 'a.pdf', contentBase64: '%%% not base64 %%%' },
    });
    expect(notBase64.statusCode).toBe(400);
    const rows = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.customerId, customer.id));
    expect(rows).toHaveLength(0);
  });

  it('refuses a document over the size limit', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const big = Buffer.concat([PDF, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await partnerRequest(t, apiKey, {
      customerId: customer.id,
      document: { fileName: 'big.pdf', contentBase64: big.toString('base64') },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().success).toBe(false);
  });

  it('answers 502 and stores nothing when the bank cannot be reached', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const real = t.deps.consents.provider;
    t.deps.consents.provider = createHttpConsentProvider({
      baseUrl: 'http://bank.test',
      clientId: 'x',
      clientSecret: 'y',
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    try {
      const res = await partnerRequest(t, apiKey, { customerId: customer.id });
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toBe(
        'The bank could not be reached. No consent was created; please try again later.',
      );
    } finally {
      t.deps.consents.provider = real;
    }
    const rows = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.customerId, customer.id));
    expect(rows).toHaveLength(0);
  });
});

describe('GET /api/partner/consents/:consentId', () => {
  it("shows a partner its own consent's status and never another partner's", async () => {
    const customer = await createCustomer(t);
    const mine = await createTestPartner(t);
    const theirs = await createTestPartner(t);
    const consent = await requestTestConsent(t, mine.apiKey, customer.id);
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/partner/consents/${consent.consentId}`,
      headers: { 'x-api-key': mine.apiKey },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({
      consentId: consent.consentId,
      consentStatus: 'Pending',
    });
    expect(own.body).not.toMatch(/accessToken|refreshToken/);

    const other = await t.app.inject({
      method: 'GET',
      url: `/api/partner/consents/${consent.consentId}`,
      headers: { 'x-api-key': theirs.apiKey },
    });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ success: false, message: 'Consent not found' });
  });
});
