import type { PartnerConsent } from '@portal/contract';
import type { TestApp } from '../../test/app';
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
