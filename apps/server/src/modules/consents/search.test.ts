import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsentListResponseSchema } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { createTestPartner, decideAtBank, requestTestConsent } from './testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function search(customerId: string, query: Record<string, string>) {
  const params = new URLSearchParams({ page: '1', limit: '10', userId: customerId, ...query });
  return t.app.inject({
    method: 'GET',
    url: `/api/user-consents?${params}`,
    headers: await authHeaders(t, customerId),
  });
}

async function found(customerId: string, query: Record<string, string>) {
  const res = await search(customerId, query);
  expect(res.statusCode, res.body).toBe(200);
  return ConsentListResponseSchema.parse(res.json());
}

/** A customer with consents of several partners, made one second apart (newest listed first). */
async function customerWith(partnerNames: string[]) {
  const customer = await createCustomer(t);
  const partners = new Map<string, Awaited<ReturnType<typeof createTestPartner>>>();
  const consents = [];
  for (const name of partnerNames) {
    if (!partners.has(name)) partners.set(name, await createTestPartner(t, name));
    const partner = partners.get(name)!;
    consents.push({
      partnerName: name,
      ...(await requestTestConsent(t, partner.apiKey, customer.id)),
    });
    t.clock.advance(1000);
  }
  return { customer, consents };
}

describe('GET /api/user-consents?search=', () => {
  it('finds matching consents on every page, not only the one shown, and pages the matches', async () => {
    // the three Zeta consents are the oldest: without a search they are on page 2
    const { customer } = await customerWith([
      ...Array.from({ length: 3 }, () => 'Zeta Books'),
      ...Array.from({ length: 12 }, () => 'Alpha Ledger'),
    ]);
    const unfiltered = await found(customer.id, {});
    expect(unfiltered.pagination.total_pages).toBe(2);
    expect(unfiltered.data.some((c) => c.partnerName === 'Zeta Books')).toBe(false);

    const zeta = await found(customer.id, { search: 'zETA' });
    expect(zeta.data.map((c) => c.partnerName)).toEqual(['Zeta Books', 'Zeta Books', 'Zeta Books']);
    expect(zeta.pagination).toEqual({ total: 3, page: 1, limit: 10, total_pages: 1 });

    const alpha = await found(customer.id, { search: 'alpha', limit: '5', page: '3' });
    expect(alpha.data).toHaveLength(2);
    expect(alpha.pagination).toEqual({ total: 12, page: 3, limit: 5, total_pages: 3 });
  });

  it('finds a consent by part of its consent ID or its partner ID, in any case', async () => {
    const { customer, consents } = await customerWith([
      'One Partner',
      'Two Partner',
      'One Partner',
    ]);
    const target = consents[1]!;
    const byId = await found(customer.id, { search: target.consentId.slice(-8).toUpperCase() });
    expect(byId.data.map((c) => c.consentId)).toEqual([target.consentId]);

    const byPartnerId = await found(customer.id, { search: target.partnerId.toLowerCase() });
    expect(byPartnerId.data.map((c) => c.consentId)).toEqual([target.consentId]);
  });

  it('matches a % or _ or \\ typed by the customer as itself, not as a wildcard', async () => {
    const { customer } = await customerWith([
      '50% Books',
      '500 Books',
      'Tax_Mate',
      'TaxiMate',
      'Back\\Slash',
      'BackSlash',
    ]);
    const names = async (term: string) =>
      (await found(customer.id, { search: term })).data.map((c) => c.partnerName);
    expect(await names('%')).toEqual(['50% Books']);
    expect(await names('0%')).toEqual(['50% Books']);
    expect(await names('_')).toEqual(['Tax_Mate']);
    expect(await names('x_m')).toEqual(['Tax_Mate']);
    expect(await names('\\')).toEqual(['Back\\Slash']);
    expect(await names('%%')).toEqual([]);
  });

  it("never finds another customer's consents, even by their exact consent ID", async () => {
    const shared = await createTestPartner(t, 'Shared Partner');
    const mine = await createCustomer(t);
    const theirs = await createCustomer(t);
    const own = await requestTestConsent(t, shared.apiKey, mine.id);
    const other = await requestTestConsent(t, shared.apiKey, theirs.id);

    const byPartner = await found(mine.id, { search: 'shared partner' });
    expect(byPartner.data.map((c) => c.consentId)).toEqual([own.consentId]);
    const byTheirId = await found(mine.id, { search: other.consentId });
    expect(byTheirId.data).toEqual([]);
    expect(byTheirId.pagination).toMatchObject({ total: 0, total_pages: 0 });

    // nor by asking with their user id
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents?page=1&limit=10&userId=${theirs.id}&search=shared`,
      headers: await authHeaders(t, mine.id),
    });
    expect(res.statusCode).toBe(403);
  });

  it('combines with the status filter, and an empty search is no search', async () => {
    const { customer, consents } = await customerWith(['Gamma Sync', 'Gamma Sync', 'Delta']);
    await decideAtBank(t, consents[0]!.consentId, 'authorise');
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/consent/getstatus',
      headers: await authHeaders(t, customer.id),
      payload: { consentId: consents[0]!.consentId },
    });
    expect(refreshed.statusCode).toBe(200);

    const approved = await found(customer.id, { search: 'gamma', consentStatus: 'Approved' });
    expect(approved.data.map((c) => c.consentId)).toEqual([consents[0]!.consentId]);
    const pending = await found(customer.id, { search: 'gamma', consentStatus: 'Pending' });
    expect(pending.data.map((c) => c.consentId)).toEqual([consents[1]!.consentId]);
    expect((await found(customer.id, { search: '   ' })).pagination.total).toBe(3);
  });

  it('refuses a search that is too long or holds control characters with a 400 naming it', async () => {
    const customer = await createCustomer(t);
    for (const term of ['x'.repeat(101), 'a\u0000b', 'a\u001bb']) {
      const res = await search(customer.id, { search: term });
      expect(res.statusCode, term).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        message: expect.stringContaining('search'),
      });
    }
  });
});
