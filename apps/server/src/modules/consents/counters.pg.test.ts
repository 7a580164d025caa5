import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { createTestPartner, decideAtBank, requestTestConsent } from './testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the consent counters under concurrent writes (PostgreSQL)', () => {
  it('stay exact through 100 deletes and refreshes at once, with new consents arriving meanwhile', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const { apiKey } = await createTestPartner(t);
    const made = [];
    for (let i = 0; i < 100; i += 1) made.push(await requestTestConsent(t, apiKey, customer.id));
    // half are authorised at the bank: refreshing them moves them from Pending to Approved
    for (const consent of made.slice(50)) await decideAtBank(t, consent.consentId, 'authorise');
    const ids = (
      await t.app.inject({ method: 'GET', url: `/api/user-consents/user/${customer.id}`, headers })
    ).json().data as { _id: string; consentId: string }[];
    const byConsentId = new Map(ids.map((c) => [c.consentId, c._id]));

    const answers = await Promise.all([
      ...made.slice(0, 50).map((c) =>
        t.app.inject({
          method: 'DELETE',
          url: `/api/user-consents/${byConsentId.get(c.consentId)}`,
          headers,
        }),
      ),
      ...made.slice(50).map((c) =>
        t.app.inject({
          method: 'POST',
          url: '/api/consent/getstatus',
          headers,
          payload: { consentId: c.consentId },
        }),
      ),
      ...Array.from({ length: 10 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/partner/consents',
          headers: { 'x-api-key': apiKey },
          payload: { customerId: customer.id },
        }),
      ),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([
      ...Array(100).fill(200),
      ...Array(10).fill(201),
    ]);

    const stored = (
      (await t.deps.db.execute(
        sql`SELECT status, n FROM consent_counts WHERE customer_id = ${customer.id}::uuid AND n <> 0 ORDER BY status`,
      )) as unknown as { rows: { status: string; n: number }[] }
    ).rows;
    const counted = (
      (await t.deps.db.execute(
        sql`SELECT status, count(*)::int AS n FROM consents WHERE customer_id = ${customer.id}::uuid GROUP BY status ORDER BY status`,
      )) as unknown as { rows: { status: string; n: number }[] }
    ).rows;
    // a deleted consent stays, Revoked, for the History view
    expect(counted).toEqual([
      { status: 'Approved', n: 50 },
      { status: 'Pending', n: 10 },
      { status: 'Revoked', n: 50 },
    ]);
    expect(stored).toEqual(counted);
  });
});
