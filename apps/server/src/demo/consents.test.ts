import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Consent } from '@portal/contract';
import { createTestApp, type TestApp } from '../test/app';
import { authHeaders, createCustomer } from '../test/customers';
import { seedDemoIfEmpty } from './seed';
import { partners } from '../modules/partners/schema';
import { customers } from '../modules/users/schema';
import { seedDemoConsents } from './consents';
import { decideAtBank } from '../modules/consents/testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('demo consents', () => {
  it('gives the demo customer at least 25 consents over all four statuses and several partners, backed by the bank', async () => {
    expect(await seedDemoIfEmpty(t.deps)).toBe(true);
    const [demo] = await t.deps.db.select().from(customers);
    const headers = await authHeaders(t, demo!.id);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/user/${demo!.id}`,
      headers,
    });
    const data = res.json().data as Consent[];
    expect(data.length).toBeGreaterThanOrEqual(25);
    const statuses = new Set(data.map((c) => c.consentStatus));
    expect([...statuses].sort()).toEqual(['Approved', 'Expired', 'Pending', 'Rejected']);
    expect(new Set(data.map((c) => c.partnerId)).size).toBeGreaterThanOrEqual(3);
    expect(data.some((c) => c.documentUploaded === 'Y')).toBe(true);
    const approved = data.find((c) => c.consentStatus === 'Approved')!;
    expect(approved.accessToken).toMatch(/^sbk_at_/);

    // the terms, as partners give them, and the defaults where one gave none
    expect(data.some((c) => c.purpose === null)).toBe(true);
    expect(data.filter((c) => c.purpose).length).toBeGreaterThan(data.length / 2);
    expect(data.flatMap((c) => c.accounts ?? []).every((a) => /^XXXX\d{4}$/.test(a))).toBe(true);
    expect(data.filter((c) => c.consentStatus === 'Approved').every((c) => c.lastAccessedAt)).toBe(
      true,
    );
    const soon = t.clock.now().getTime() + 30 * 86_400_000;
    expect(
      data.filter(
        (c) => c.consentStatus === 'Approved' && Date.parse(c.expirationDateTime!) <= soon,
      ),
    ).toHaveLength(1);
    const history = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/history?userId=${demo!.id}&limit=100`,
      headers,
    });
    const past = history.json().data as { consentStatus: string }[];
    expect(past.filter((c) => c.consentStatus === 'Revoked')).toHaveLength(2);
    expect(past.filter((c) => c.consentStatus === 'Expired').length).toBeGreaterThanOrEqual(3);
    expect(data.length).toBe(28);

    // a seeded pending consent is a real request at the bank
    const pending = data.find((c) => c.consentStatus === 'Pending')!;
    await decideAtBank(t, pending.consentId, 'authorise');
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/consent/getstatus',
      headers,
      payload: { consentId: pending.consentId },
    });
    expect(refreshed.json().data.consentStatus).toBe('Approved');
    // and an approved one still refreshes with the token the portal holds
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/consent/getstatus',
      headers,
      payload: { consentId: approved.consentId },
    });
    expect(again.json().data.consentStatus).toBe('Approved');
  });

  it("seeds a second customer's consents with the partners the first seed made", async () => {
    const before = await t.deps.db.select().from(partners);
    const second = await createCustomer(t);
    await seedDemoConsents(t.deps, second.id);
    expect(await t.deps.db.select().from(partners)).toEqual(before);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/user/${second.id}`,
      headers: await authHeaders(t, second.id),
    });
    const data = res.json().data as Consent[];
    expect(data.length).toBeGreaterThanOrEqual(25);
    expect(new Set(data.map((c) => c.partnerId))).toEqual(new Set(before.map((p) => p.partnerId)));
  });
});
