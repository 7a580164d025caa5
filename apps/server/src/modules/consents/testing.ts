import type { PartnerConsent } from '@portal/contract';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../test/app';
import { activityEvents } from '../activity/schema';
import { authHeaders, createCustomer } from '../../test/customers';
import { createPartner } from '../partners/service';
import { sandboxBankAuthorization } from '../../sandbox/bank/routes';

let sequence = 0;

/** A partner of its own for a test, with its key. */
export async function createTestPartner(t: TestApp, name?: string) {
  sequence += 1;
  return createPartner(t.deps.db, t.clock, { name: name ?? `Test Partner ${sequence}` });
}

export function partnerRequest(t: TestApp, apiKey: string, payload: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/partner/consents',
    headers: { 'x-api-key': apiKey },
    payload,
  });
}

/** A consent requested through the partner API, Pending at the sandbox bank. */
export async function requestTestConsent(
  t: TestApp,
  apiKey: string,
  customerId: string,
  extra: Record<string, unknown> = {},
): Promise<PartnerConsent> {
  const res = await partnerRequest(t, apiKey, { customerId, ...extra });
  if (res.statusCode !== 201) throw new Error(`consent request failed: ${res.body}`);
  return res.json().data as PartnerConsent;
}

/** The customer decides at the sandbox bank, through its page's form. */
export async function decideAtBank(
  t: TestApp,
  consentId: string,
  decision: 'authorise' | 'reject',
) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/sandbox/bank/consents/${encodeURIComponent(consentId)}/${decision}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: sandboxBankAuthorization(t.deps.consents.sandboxBank!),
    },
    payload: '',
  });
  if (
    res.statusCode !== 303 ||
    !res.headers.location?.includes(decision === 'authorise' ? 'authorised' : 'rejected')
  ) {
    throw new Error(`the bank did not ${decision}: ${res.statusCode} ${res.headers.location}`);
  }
}

/**
 * A consent with these terms, requested by a partner of its own, authorised at the sandbox bank
 * and refreshed by its customer, so the portal stores it Approved.
 */
export async function approvedTestConsent(t: TestApp, terms: Record<string, unknown> = {}) {
  const customer = await createCustomer(t);
  const partner = await createTestPartner(t);
  const made = await requestTestConsent(t, partner.apiKey, customer.id, terms);
  await decideAtBank(t, made.consentId, 'authorise');
  const refreshed = await t.app.inject({
    method: 'POST',
    url: '/api/consent/getstatus',
    headers: await authHeaders(t, customer.id),
    payload: { consentId: made.consentId },
  });
  if (refreshed.statusCode !== 200) throw new Error(`refresh failed: ${refreshed.body}`);
  return { customer, apiKey: partner.apiKey, consentId: made.consentId };
}

/** A partner's read of a consent's data through the partner API. */
export function partnerRead(
  t: TestApp,
  apiKey: string,
  consentId: string,
  resource: 'accounts' | 'transactions',
  query: Record<string, string> = {},
) {
  const search = new URLSearchParams(query).toString();
  return t.app.inject({
    method: 'GET',
    url: `/api/partner/consents/${encodeURIComponent(consentId)}/${resource}${search ? `?${search}` : ''}`,
    headers: { 'x-api-key': apiKey },
  });
}

/** The types of the customer's activity events, as recorded. */
export const activityTypesOf = async (t: TestApp, customerId: string) =>
  (
    await t.deps.db
      .select({ type: activityEvents.type })
      .from(activityEvents)
      .where(eq(activityEvents.customerId, customerId))
  ).map((e) => e.type);
