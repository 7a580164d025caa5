import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Consent, PartnerConsent, PastConsent } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { consents } from './schema';
import { createTestPartner, decideAtBank, partnerRequest, requestTestConsent } from './testing';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const inDays = (days: number) => new Date(t.clock.now().getTime() + days * DAY_MS).toISOString();

async function customerWithPartner() {
  const customer = await createCustomer(t);
  const partner = await createTestPartner(t, `Partner of ${customer.id.slice(0, 8)}`);
  return { customer, partner, headers: await authHeaders(t, customer.id) };
}

/** A consent the customer approved at the bank and the portal has heard of. */
async function approvedConsent(
  c: Awaited<ReturnType<typeof customerWithPartner>>,
  extra: Record<string, unknown> = {},
) {
  const made = await requestTestConsent(t, c.partner.apiKey, c.customer.id, extra);
  await decideAtBank(t, made.consentId, 'authorise');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/consent/getstatus',
    headers: c.headers,
    payload: { consentId: made.consentId },
  });
  return res.json().data as Consent;
}

const history = (headers: Record<string, string>, query: string) =>
  t.app.inject({ method: 'GET', url: `/api/user-consents/history?${query}`, headers });

const reconnect = (headers: Record<string, string>, id: string) =>
  t.app.inject({ method: 'POST', url: `/api/user-consents/${id}/reconnect`, headers });

const remove = (headers: Record<string, string>, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/user-consents/${id}`, headers });

describe('GET /api/user-consents/history', () => {
  it('lists the revoked and expired consents, newest first, and none of the live or rejected', async () => {
    const c = await customerWithPartner();
    const revoked = await approvedConsent(c);
    t.clock.advance(1000);
    const expiring = await approvedConsent(c, { expirationDateTime: inDays(1) });
    t.clock.advance(1000);
    await approvedConsent(c);
    t.clock.advance(1000);
    const rejected = await requestTestConsent(t, c.partner.apiKey, c.customer.id);
    await decideAtBank(t, rejected.consentId, 'reject');
    await requestTestConsent(t, c.partner.apiKey, c.customer.id);
    expect((await remove(c.headers, revoked._id)).statusCode).toBe(200);
    t.clock.advance(DAY_MS);
    // a day on, the customer signs in again
    const headers = await authHeaders(t, c.customer.id);

    const res = await history(headers, `userId=${c.customer.id}`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data as PastConsent[];
    expect(data.map((p) => [p.consentId, p.consentStatus])).toEqual([
      [expiring.consentId, 'Expired'],
      [revoked.consentId, 'Revoked'],
    ]);
    expect(data[1]!.revokedAt).not.toBeNull();
    expect(data[1]!.accessToken).toBeNull();
    expect(data[0]!.revokedAt).toBeNull();
    expect(res.json().pagination).toEqual({ total: 2, page: 1, limit: 10, total_pages: 1 });
    // the expiry found by History is stored, so the list's Expired filter and History agree
    const [stored] = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.consentId, expiring.consentId));
    expect(stored!.status).toBe('Expired');
  });

  it('pages by keyset with Next and Previous, and refuses a cursor of the main list', async () => {
    const c = await customerWithPartner();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const made = await requestTestConsent(t, c.partner.apiKey, c.customer.id);
      ids.push(made.consentId);
      t.clock.advance(1000);
    }
    const rows = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.customerId, c.customer.id));
    for (const row of rows) expect((await remove(c.headers, row.id)).statusCode).toBe(200);

    const first = (await history(c.headers, `userId=${c.customer.id}&limit=2`)).json();
    expect(first.data.map((p: PastConsent) => p.consentId)).toEqual([ids[4], ids[3]]);
    expect(first.pagination.total_pages).toBe(3);
    const second = (
      await history(c.headers, `userId=${c.customer.id}&limit=2&after=${first.cursors.next}`)
    ).json();
    expect(second.data.map((p: PastConsent) => p.consentId)).toEqual([ids[2], ids[1]]);
    expect(second.pagination.page).toBe(2);
    const third = (
      await history(c.headers, `userId=${c.customer.id}&limit=2&after=${second.cursors.next}`)
    ).json();
    expect(third.data.map((p: PastConsent) => p.consentId)).toEqual([ids[0]]);
    expect(third.cursors.next).toBeNull();
    const back = (
      await history(c.headers, `userId=${c.customer.id}&limit=2&before=${third.cursors.previous}`)
    ).json();
    expect(back.data.map((p: PastConsent) => p.consentId)).toEqual([ids[2], ids[1]]);
    const byNumber = (await history(c.headers, `userId=${c.customer.id}&limit=2&page=3`)).json();
    expect(byNumber.data.map((p: PastConsent) => p.consentId)).toEqual([ids[0]]);

    const mainList = (
      await t.app.inject({
        method: 'GET',
        url: `/api/user-consents?userId=${c.customer.id}&limit=1`,
        headers: c.headers,
      })
    ).json();
    expect(mainList.data).toEqual([]);
    const other = await customerWithPartner();
    await requestTestConsent(t, other.partner.apiKey, other.customer.id);
    await requestTestConsent(t, other.partner.apiKey, other.customer.id);
    const otherList = (
      await t.app.inject({
        method: 'GET',
        url: `/api/user-consents?userId=${other.customer.id}&limit=1`,
        headers: other.headers,
      })
    ).json();
    const foreign = await history(
      other.headers,
      `userId=${other.customer.id}&limit=1&after=${otherList.cursors.next}`,
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toContain('another filter or search');
  });

  it("refuses another customer's history and bad paging with a 4xx", async () => {
    const a = await customerWithPartner();
    const b = await customerWithPartner();
    expect((await history(b.headers, `userId=${a.customer.id}`)).statusCode).toBe(403);
    expect((await history(b.headers, `userId=${b.customer.id}&limit=0`)).statusCode).toBe(400);
    expect((await history(b.headers, `userId=${b.customer.id}&after=xyz`)).statusCode).toBe(400);
    expect((await history(b.headers, '')).statusCode).toBe(400);
  });
});

describe('POST /api/user-consents/:id/reconnect', () => {
  it('asks the partner for an expired consent and for one ending within 30 days, once', async () => {
    const c = await customerWithPartner();
    const soon = await approvedConsent(c, { expirationDateTime: inDays(30) });
    const lapsing = await approvedConsent(c, { expirationDateTime: inDays(2) });
    t.clock.advance(3 * DAY_MS);
    const headers = await authHeaders(t, c.customer.id);

    const first = await reconnect(headers, soon._id);
    expect(first.statusCode).toBe(200);
    expect(first.json().message).toBe(`${c.partner.partner.name} has been asked to reconnect.`);
    const askedAt = t.clock.now().toISOString();
    expect(first.json().data.reconnectRequestedAt).toBe(askedAt);
    t.clock.advance(1000);
    const again = await reconnect(headers, soon._id);
    expect(again.json().data.reconnectRequestedAt).toBe(askedAt);

    const expired = await reconnect(headers, lapsing._id);
    expect(expired.statusCode).toBe(200);
    expect(expired.json().data.consentStatus).toBe('Expired');
  });

  it('refuses a consent far from its end, a pending and a rejected one with a 409, storing nothing', async () => {
    const c = await customerWithPartner();
    const far = await approvedConsent(c, { expirationDateTime: inDays(31) });
    const pending = await requestTestConsent(t, c.partner.apiKey, c.customer.id, {
      expirationDateTime: inDays(5),
    });
    const rejected = await requestTestConsent(t, c.partner.apiKey, c.customer.id);
    await decideAtBank(t, rejected.consentId, 'reject');
    await t.app.inject({
      method: 'POST',
      url: '/api/consent/getstatus',
      headers: c.headers,
      payload: { consentId: rejected.consentId },
    });
    const rows = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.customerId, c.customer.id));
    const idOf = (consentId: string) => rows.find((r) => r.consentId === consentId)!.id;
    for (const id of [far._id, idOf(pending.consentId), idOf(rejected.consentId)]) {
      const res = await reconnect(c.headers, id);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('within 30 days');
    }
    const after = await t.deps.db
      .select()
      .from(consents)
      .where(eq(consents.customerId, c.customer.id));
    expect(after.every((r) => r.reconnectRequestedAt === null)).toBe(true);
  });

  it("answers 404 for another customer's consent, a revoked one and a malformed id", async () => {
    const a = await customerWithPartner();
    const b = await customerWithPartner();
    const theirs = await approvedConsent(a, { expirationDateTime: inDays(3) });
    const revoked = await approvedConsent(b, { expirationDateTime: inDays(3) });
    expect((await remove(b.headers, revoked._id)).statusCode).toBe(200);
    for (const id of [theirs._id, revoked._id, 'not-a-uuid']) {
      expect((await reconnect(b.headers, id)).statusCode).toBe(404);
    }
    const [row] = await t.deps.db.select().from(consents).where(eq(consents.id, theirs._id));
    expect(row!.reconnectRequestedAt).toBeNull();
  });

  it('is seen by the partner, and answered by its new consent with replacesConsentId', async () => {
    const c = await customerWithPartner();
    const old = await approvedConsent(c, { expirationDateTime: inDays(10) });
    await reconnect(c.headers, old._id);
    const partnerHeaders = { 'x-api-key': c.partner.apiKey };

    const seen = await t.app.inject({
      method: 'GET',
      url: `/api/partner/consents/${old.consentId}`,
      headers: partnerHeaders,
    });
    expect(seen.json().data.reconnectRequestedAt).toBe(t.clock.now().toISOString());
    const open = await t.app.inject({
      method: 'GET',
      url: '/api/partner/reconnect-requests',
      headers: partnerHeaders,
    });
    expect(open.statusCode).toBe(200);
    expect(open.json().data.map((p: PartnerConsent) => p.consentId)).toEqual([old.consentId]);
    const elsewhere = await createTestPartner(t);
    const notTheirs = await t.app.inject({
      method: 'GET',
      url: '/api/partner/reconnect-requests',
      headers: { 'x-api-key': elsewhere.apiKey },
    });
    expect(notTheirs.json().data).toEqual([]);

    const fresh = await partnerRequest(t, c.partner.apiKey, {
      customerId: c.customer.id,
      replacesConsentId: old.consentId,
    });
    expect(fresh.statusCode).toBe(201);
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/partner/reconnect-requests',
      headers: partnerHeaders,
    });
    expect(after.json().data).toEqual([]);
    const [row] = await t.deps.db.select().from(consents).where(eq(consents.id, old._id));
    expect(row!.reconnectRequestedAt).toBeNull();
  });

  it("refuses replacesConsentId naming another partner's or another customer's consent, storing nothing", async () => {
    const c = await customerWithPartner();
    const old = await approvedConsent(c, { expirationDateTime: inDays(10) });
    const other = await createCustomer(t);
    const before = await t.deps.db.select().from(consents);
    const foreignCustomer = await partnerRequest(t, c.partner.apiKey, {
      customerId: other.id,
      replacesConsentId: old.consentId,
    });
    expect(foreignCustomer.statusCode).toBe(404);
    expect(foreignCustomer.json().message).toContain('replacesConsentId');
    const elsewhere = await createTestPartner(t);
    const foreignPartner = await partnerRequest(t, elsewhere.apiKey, {
      customerId: c.customer.id,
      replacesConsentId: old.consentId,
    });
    expect(foreignPartner.statusCode).toBe(404);
    expect(await t.deps.db.select().from(consents)).toHaveLength(before.length);
  });
});

describe('GET /api/user-consents/:id', () => {
  it("answers the customer's own consent with its terms, and 404 for another's or a revoked one", async () => {
    const a = await customerWithPartner();
    const b = await customerWithPartner();
    const mine = await approvedConsent(a, { purpose: 'Monthly GST returns' });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/${mine._id}`,
      headers: a.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      _id: mine._id,
      purpose: 'Monthly GST returns',
      partnerName: a.partner.partner.name,
    });
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/${mine._id}`,
      headers: b.headers,
    });
    expect(foreign.statusCode).toBe(404);
    await remove(a.headers, mine._id);
    const gone = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/${mine._id}`,
      headers: a.headers,
    });
    expect(gone.statusCode).toBe(404);
  });
});
