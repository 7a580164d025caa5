import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { consents } from './schema';
import { activityTypesOf, createTestPartner, requestTestConsent } from './testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function ownConsent() {
  const customer = await createCustomer(t);
  const { apiKey } = await createTestPartner(t);
  const { consentId } = await requestTestConsent(t, apiKey, customer.id);
  const [row] = await t.deps.db.select().from(consents).where(eq(consents.consentId, consentId));
  return { customer, headers: await authHeaders(t, customer.id), consentId, id: row!.id };
}

/**
 * Puts a provider in place whose first call of one bank operation waits, once the bank has
 * answered, until `release`: another request can remove the consent meanwhile. `reached`
 * resolves when that call waits.
 */
function holdFirstCall(name: 'getConsent' | 'revokeConsent' | 'setConsentStatus') {
  const real = t.deps.consents.provider;
  let release!: () => void;
  let reached!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const waiting = new Promise<void>((resolve) => (reached = resolve));
  let calls = 0;
  async function hold<T>(op: typeof name, answer: Promise<T>): Promise<T> {
    if (op !== name || (calls += 1) > 1) return answer;
    const value = await answer;
    reached();
    await released;
    return value;
  }
  t.deps.consents.provider = {
    createConsent: (input) => real.createConsent(input),
    getConsent: (consentId, held) => hold('getConsent', real.getConsent(consentId, held)),
    revokeConsent: (consentId) => hold('revokeConsent', real.revokeConsent(consentId)),
    setConsentStatus: (consentId, status) =>
      hold('setConsentStatus', real.setConsentStatus(consentId, status)),
    readData: (consentId, read, held) => real.readData(consentId, read, held),
  };
  return {
    reached: waiting,
    release,
    restore: () => {
      t.deps.consents.provider = real;
    },
  };
}

const remove = (headers: Record<string, string>, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/user-consents/${id}`, headers });

const eventsOf = (customerId: string) => activityTypesOf(t, customerId);

describe('a consent removed while another request about it waits on the bank', () => {
  it('answers the refresh that lost 404, stores nothing for it, and records only the deletion', async () => {
    const { customer, headers, consentId, id } = await ownConsent();
    const hold = holdFirstCall('getConsent');
    try {
      const refreshing = t.app.inject({
        method: 'POST',
        url: '/api/consent/getstatus',
        headers,
        payload: { consentId },
      });
      await hold.reached;
      expect((await remove(headers, id)).statusCode).toBe(200);
      hold.release();
      const lost = await refreshing;
      expect(lost.statusCode).toBe(404);
      expect(lost.json()).toMatchObject({ success: false, message: 'Consent not found' });
    } finally {
      hold.restore();
    }
    const [kept] = await t.deps.db.select().from(consents).where(eq(consents.id, id));
    expect(kept).toMatchObject({ status: 'Revoked', accessTokenEnc: null });
    expect(await eventsOf(customer.id)).not.toContain('consent_refreshed');
    expect((await eventsOf(customer.id)).filter((e) => e === 'consent_deleted')).toHaveLength(1);
  });

  it('answers the second of two deletions 404 and records the deletion once', async () => {
    const { customer, headers, id } = await ownConsent();
    const hold = holdFirstCall('revokeConsent');
    try {
      const first = remove(headers, id);
      await hold.reached;
      expect((await remove(headers, id)).statusCode).toBe(200);
      hold.release();
      const lost = await first;
      expect(lost.statusCode).toBe(404);
      expect(lost.json()).toMatchObject({ success: false, message: 'Consent not found' });
    } finally {
      hold.restore();
    }
    expect((await eventsOf(customer.id)).filter((e) => e === 'consent_deleted')).toHaveLength(1);
  });
});
