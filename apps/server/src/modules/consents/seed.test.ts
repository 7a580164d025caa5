import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Consent } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders } from '../../test/customers';
import { seedDemoIfEmpty } from '../../db/seed';
import { customers } from '../users/schema';
import { decideAtBank } from './testing';

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
});
