import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pauseConsentPath, type Consent, type PartnerConsent } from '@portal/contract';
import { createHttpConsentProvider } from '../../adapters/consent-provider';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { sandboxBankConsents } from '../../sandbox/bank/schema';
import { consents } from './schema';
import {
  activityTypesOf,
  approvedTestConsent,
  createTestPartner,
  partnerRead,
  requestTestConsent,
} from './testing';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const rowOf = async (consentId: string) => {
  const [row] = await t.deps.db.select().from(consents).where(eq(consents.consentId, consentId));
  return row!;
};

const bankStatusOf = async (consentId: string) => {
  const [row] = await t.deps.db
    .select({ status: sandboxBankConsents.status })
    .from(sandboxBankConsents)
    .where(eq(sandboxBankConsents.consentId, consentId));
  return row!.status;
};

async function change(customerId: string, id: string, action: 'pause' | 'resume') {
  return t.app.inject({
    method: 'POST',
    url: pauseConsentPath(id, action),
    headers: await authHeaders(t, customerId),
  });
}

const partnerView = async (apiKey: string, consentId: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/partner/consents/${encodeURIComponent(consentId)}`,
    headers: { 'x-api-key': apiKey },
  });
  return res.json().data as PartnerConsent;
};

const eventsOf = (customerId: string) => activityTypesOf(t, customerId);

describe('POST /api/user-consents/:id/pause and /resume', () => {
  it('pauses at the bank, refuses the partner’s reads while paused, and resumes them', async () => {
    const { customer, apiKey, consentId } = await approvedTestConsent(t);
    const { id } = await rowOf(consentId);
    expect((await partnerRead(t, apiKey, consentId, 'accounts')).statusCode).toBe(200);

    t.clock.advance(60_000);
    const paused = await change(customer.id, id, 'pause');
    expect(paused.statusCode).toBe(200);
    const body = paused.json() as { message: string; data: Consent };
    expect(body.message).toBe('Consent paused');
    expect(body.data).toMatchObject({
      consentStatus: 'Approved',
      pausedAt: t.clock.now().toISOString(),
    });
    // the tokens stay: they read again once resumed
    expect(body.data.accessToken).not.toBeNull();
    expect(await bankStatusOf(consentId)).toBe('Paused');
    expect(await partnerView(apiKey, consentId)).toMatchObject({
      consentStatus: 'Paused',
      pausedAt: t.clock.now().toISOString(),
    });

    const refused = await partnerRead(t, apiKey, consentId, 'transactions');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      `Consent ${consentId} is Paused: the customer has paused it, and no data can be read until they resume it.`,
    );
    // the bank refuses too, whatever the portal holds
    await expect(
      t.deps.consents.provider.readData(consentId, { resource: 'accounts' }),
    ).rejects.toMatchObject({ kind: 'refused', refusal: 'paused' });

    // a status refresh keeps the pause the bank holds
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/consent/getstatus',
      headers: await authHeaders(t, customer.id),
      payload: { consentId },
    });
    expect(refreshed.json().data).toMatchObject({
      consentStatus: 'Approved',
      pausedAt: expect.any(String),
    });

    const resumed = await change(customer.id, id, 'resume');
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toMatchObject({ message: 'Consent resumed', data: { pausedAt: null } });
    expect(await bankStatusOf(consentId)).toBe('Authorised');
    expect((await partnerView(apiKey, consentId)).consentStatus).toBe('Approved');
    expect((await partnerRead(t, apiKey, consentId, 'accounts')).statusCode).toBe(200);

    const types = await eventsOf(customer.id);
    expect(types.filter((type) => type === 'consent_paused')).toHaveLength(1);
    expect(types.filter((type) => type === 'consent_resumed')).toHaveLength(1);
    const bell = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: await authHeaders(t, customer.id),
    });
    const titles = (bell.json().notifications as { title: string }[]).map((n) => n.title);
    expect(titles).toEqual(expect.arrayContaining(['Consent paused', 'Consent resumed']));
  });

  it('changes nothing when asked again for the state the consent is in', async () => {
    const { customer, consentId } = await approvedTestConsent(t);
    const { id } = await rowOf(consentId);
    expect((await change(customer.id, id, 'resume')).json().data.pausedAt).toBeNull();
    expect((await change(customer.id, id, 'pause')).statusCode).toBe(200);
    const again = await change(customer.id, id, 'pause');
    expect(again.statusCode).toBe(200);
    expect(again.json().data.pausedAt).not.toBeNull();
    const types = await eventsOf(customer.id);
    expect(types.filter((type) => type === 'consent_paused')).toHaveLength(1);
    expect(types).not.toContain('consent_resumed');
  });

  it('records one pause of many asked at once', async () => {
    const { customer, consentId } = await approvedTestConsent(t);
    const { id } = await rowOf(consentId);
    const headers = await authHeaders(t, customer.id);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.app.inject({ method: 'POST', url: pauseConsentPath(id, 'pause'), headers }),
      ),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array(100).fill(200));
    const types = await eventsOf(customer.id);
    expect(types.filter((type) => type === 'consent_paused')).toHaveLength(1);
    expect((await rowOf(consentId)).providerStatus).toBe('Paused');
  });

  it('refuses a consent that is not approved, and one that has expired while paused', async () => {
    const customer = await createCustomer(t);
    const partner = await createTestPartner(t);
    const pending = await requestTestConsent(t, partner.apiKey, customer.id);
    const { id } = await rowOf(pending.consentId);
    const res = await change(customer.id, id, 'pause');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      success: false,
      message: 'Only an approved consent can be paused.',
    });
    expect(await bankStatusOf(pending.consentId)).toBe('AwaitingAuthorisation');

    const approved = await approvedTestConsent(t, {
      expirationDateTime: new Date(t.clock.now().getTime() + 2 * DAY_MS).toISOString(),
    });
    const row = await rowOf(approved.consentId);
    expect((await change(approved.customer.id, row.id, 'pause')).statusCode).toBe(200);
    t.clock.advance(3 * DAY_MS);
    const late = await change(approved.customer.id, row.id, 'resume');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('Only an approved consent can be resumed.');
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/${row.id}`,
      headers: await authHeaders(t, approved.customer.id),
    });
    // an expired consent is shown expired, not paused
    expect(list.json().data).toMatchObject({ consentStatus: 'Expired', pausedAt: null });
  });

  it('answers 404 for another customer’s consent or a made-up id, and asks the bank nothing', async () => {
    const { consentId } = await approvedTestConsent(t);
    const { id } = await rowOf(consentId);
    const stranger = await createCustomer(t);
    for (const target of [id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await change(stranger.id, target, 'pause');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'Consent not found' });
    }
    expect(await bankStatusOf(consentId)).toBe('Authorised');
  });

  it('answers 502 and changes nothing when the bank cannot be reached', async () => {
    const { customer, consentId } = await approvedTestConsent(t);
    const before = await rowOf(consentId);
    const real = t.deps.consents.provider;
    t.deps.consents.provider = createHttpConsentProvider({
      baseUrl: 'http://bank.test',
      clientId: 'x',
      clientSecret: 'y',
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    try {
      const res = await change(customer.id, before.id, 'pause');
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toBe(
        'The bank could not be reached. Nothing was changed; please try again later.',
      );
    } finally {
      t.deps.consents.provider = real;
    }
    expect(await rowOf(consentId)).toEqual(before);
    expect(await eventsOf(customer.id)).not.toContain('consent_paused');
  });
});

describe('the consent’s data life and read count', () => {
  it('shows how long the partner may keep the data, and how many reads it made', async () => {
    const { customer, apiKey, consentId } = await approvedTestConsent(t, { dataLifeDays: 30 });
    const { id } = await rowOf(consentId);
    const [held] = await t.deps.db
      .select({ dataLifeDays: sandboxBankConsents.dataLifeDays })
      .from(sandboxBankConsents)
      .where(eq(sandboxBankConsents.consentId, consentId));
    expect(held!.dataLifeDays).toBe(30);
    for (const resource of ['accounts', 'transactions'] as const) {
      expect((await partnerRead(t, apiKey, consentId, resource)).statusCode).toBe(200);
    }
    // refused reads are not counted
    await change(customer.id, id, 'pause');
    expect((await partnerRead(t, apiKey, consentId, 'accounts')).statusCode).toBe(403);

    const headers = await authHeaders(t, customer.id);
    const one = await t.app.inject({ method: 'GET', url: `/api/user-consents/${id}`, headers });
    expect(one.json().data).toMatchObject({ dataLifeDays: 30, readsMade: 2 });
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents?userId=${customer.id}`,
      headers,
    });
    expect(page.json().data[0]).toMatchObject({
      dataLifeDays: 30,
      readsMade: 2,
      pausedAt: expect.any(String),
    });
    expect(await partnerView(apiKey, consentId)).toMatchObject({ dataLifeDays: 30, readsMade: 2 });
  });

  it('shows no data life when the partner did not say, and refuses one out of range', async () => {
    const { customer, consentId } = await approvedTestConsent(t);
    const { id } = await rowOf(consentId);
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/${id}`,
      headers: await authHeaders(t, customer.id),
    });
    expect(one.json().data).toMatchObject({ dataLifeDays: null, readsMade: 0 });

    const partner = await createTestPartner(t);
    for (const [dataLifeDays, message] of [
      [0, 'dataLifeDays must be at least 1'],
      [3651, 'dataLifeDays must be at most 3650'],
      [1.5, 'dataLifeDays must be a whole number'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/partner/consents',
        headers: { 'x-api-key': partner.apiKey },
        payload: { customerId: customer.id, dataLifeDays },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(message);
    }
  });
});
