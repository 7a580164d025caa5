import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { activityEvents } from '../activity/schema';
import { sweepExpiredConsents } from './expiry';
import { consents } from './schema';
import { createTestPartner, decideAtBank, requestTestConsent } from './testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A customer with one consent Pending at the sandbox bank, requested by a partner of its own. */
async function customerWithConsent() {
  const customer = await createCustomer(t);
  const { apiKey, partner } = await createTestPartner(t);
  const { consentId } = await requestTestConsent(t, apiKey, customer.id);
  const [row] = await t.deps.db.select().from(consents).where(eq(consents.consentId, consentId));
  return { customer, headers: await authHeaders(t, customer.id), consentId, row: row!, partner };
}

/** The customer's latest activity event: what the activity page and the bell are made of. */
async function latestEvent(customerId: string) {
  const [event] = await t.deps.db
    .select({
      type: activityEvents.type,
      title: activityEvents.title,
      description: activityEvents.description,
      details: activityEvents.details,
    })
    .from(activityEvents)
    .where(eq(activityEvents.customerId, customerId))
    .orderBy(desc(activityEvents.createdAt), desc(activityEvents.id))
    .limit(1);
  return event;
}

describe("what the customer's activity says of their own consents", () => {
  it('says a refresh found the consent unchanged, then what the bank now reports', async () => {
    const { customer, headers, consentId } = await customerWithConsent();
    const refresh = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/consent/getstatus',
        headers,
        payload: { consentId },
      });
    t.clock.advance(1000);
    expect((await refresh()).statusCode).toBe(200);
    expect(await latestEvent(customer.id)).toEqual({
      type: 'consent_refreshed',
      title: 'Consent status refreshed',
      description: `Consent ${consentId} is still Pending.`,
      details: { consentId },
    });
    await decideAtBank(t, consentId, 'authorise');
    t.clock.advance(1000);
    expect((await refresh()).statusCode).toBe(200);
    expect(await latestEvent(customer.id)).toEqual({
      type: 'consent_approved',
      title: 'Consent approved',
      description: `The bank now reports consent ${consentId} as Approved.`,
      details: { consentId },
    });
  });

  it('says which consent of which partner was deleted and what that means', async () => {
    const { customer, headers, consentId, row, partner } = await customerWithConsent();
    t.clock.advance(1000);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/user-consents/${row.id}`,
      headers,
    });
    expect(res.statusCode).toBe(200);
    expect(await latestEvent(customer.id)).toEqual({
      type: 'consent_deleted',
      title: 'Consent deleted',
      description: `Consent ${consentId} of ${partner.name} was deleted: the partner can no longer read your bank data.`,
      details: { consentId },
    });
  });

  it('says a consent reached its expiry time', async () => {
    const { customer, consentId, row } = await customerWithConsent();
    t.clock.set(new Date(row.expiresAt!.getTime() + 1000));
    expect(await sweepExpiredConsents(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await latestEvent(customer.id)).toEqual({
      type: 'consent_expired',
      title: 'Consent expired',
      description: `Consent ${consentId} reached its expiry time.`,
      details: { consentId },
    });
  });

  it("answers 'Consent not found' to a malformed id and to another customer's consent", async () => {
    const mine = await customerWithConsent();
    const theirs = await customerWithConsent();
    for (const id of ['not-a-uuid', theirs.row.id, randomUUID()]) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/user-consents/${id}`,
        headers: mine.headers,
      });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ success: false, message: 'Consent not found' });
    }
    expect(
      await t.deps.db.select().from(consents).where(eq(consents.id, theirs.row.id)),
    ).toHaveLength(1);
  });
});
