import { eq } from 'drizzle-orm';
import { privacyPaths } from '@portal/contract';
import type { TestApp } from './app';
import { authHeaders } from './customers';
import { codeFrom } from './mail';
import { HOUR_MS } from '../lib/clock';
import { sweepExpiredConsents } from '../modules/consents/expiry';
import { consents } from '../modules/consents/schema';
import {
  createTestPartner,
  decideAtBank,
  partnerRead,
  requestTestConsent,
} from '../modules/consents/testing';

type Headers = Record<string, string>;

export const post = (t: TestApp, url: string, headers: Headers, payload?: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers,
    ...(payload ? { payload: payload as object } : {}),
  });

/** The code in the newest mail to `to`. */
export async function codeMailedTo(t: TestApp, to: string) {
  const mail = (await t.outbox()).filter((m) => m.to === to).at(-1);
  if (!mail) throw new Error(`no mail to ${to}`);
  return codeFrom(mail);
}

/** Closes the account as the customer does: a code by mail, then the password and the code. */
export async function closeAccountOf(
  t: TestApp,
  customer: { id: string; email: string; password: string },
) {
  const headers = await authHeaders(t, customer.id);
  const asked = await post(t, privacyPaths.closeAccountCode, headers);
  if (asked.statusCode !== 200) throw new Error(`no code to close: ${asked.body}`);
  return post(t, privacyPaths.closeAccount, headers, {
    password: customer.password,
    code: await codeMailedTo(t, customer.email),
  });
}

/** The smallest file a partner may send as its document: the first bytes of a PDF. */
export const PARTNER_DOCUMENT = Buffer.from('%PDF-1.7\n% a signed mandate\n');

/**
 * One consent of the customer in each status (Pending, Approved, Rejected, Expired, Revoked),
 * each asked for with personal terms and a document, the Approved one read by its partner. It
 * moves the clock two hours on (the Expired one passes its time): sessions made before are idle.
 */
export async function consentsOfEveryStatus(t: TestApp, customerId: string) {
  const partner = await createTestPartner(t);
  const ask = (label: string, extra: Record<string, unknown> = {}) =>
    requestTestConsent(t, partner.apiKey, customerId, {
      netBankingUserId: `netbanking-${label}-${customerId.slice(0, 8)}`,
      accountNumbers: ['501004123451234'],
      purpose: `Bank reconciliation of ${label} accounts`,
      transactionFromDateTime: '2026-04-01T00:00:00+05:30',
      transactionToDateTime: '2026-05-01T00:00:00+05:30',
      document: { fileName: 'mandate.pdf', contentBase64: PARTNER_DOCUMENT.toString('base64') },
      requestId: `${label}-${customerId}`,
      ...extra,
    });

  const expired = await ask('expired', {
    expirationDateTime: new Date(t.clock.now().getTime() + HOUR_MS).toISOString(),
  });
  t.clock.advance(2 * HOUR_MS);
  await sweepExpiredConsents(t.deps);

  const headers = await authHeaders(t, customerId);
  const refresh = async (consentId: string) => {
    const res = await post(t, '/api/consent/getstatus', headers, { consentId });
    if (res.statusCode !== 200) throw new Error(`refresh failed: ${res.body}`);
  };
  const pending = await ask('pending');
  const approved = await ask('approved');
  await decideAtBank(t, approved.consentId, 'authorise');
  await refresh(approved.consentId);
  const read = await partnerRead(t, partner.apiKey, approved.consentId, 'accounts');
  if (read.statusCode !== 200) throw new Error(`read failed: ${read.body}`);
  const rejected = await ask('rejected');
  await decideAtBank(t, rejected.consentId, 'reject');
  await refresh(rejected.consentId);
  const revoked = await ask('revoked');
  const [row] = await t.deps.db
    .select({ id: consents.id })
    .from(consents)
    .where(eq(consents.consentId, revoked.consentId));
  const deleted = await t.app.inject({
    method: 'DELETE',
    url: `/api/user-consents/${row!.id}`,
    headers,
  });
  if (deleted.statusCode !== 200) throw new Error(`delete failed: ${deleted.body}`);

  const statuses = { pending, approved, rejected, expired, revoked };
  return { partner, consentIds: Object.values(statuses).map((consent) => consent.consentId) };
}

/** The files of every data archive, beside the PDFs of the customer's documents. */
export const ARCHIVE_TEXT_FILES = [
  'README.txt',
  'account.json',
  'activity.json',
  'consents.json',
  'invoices.json',
  'orders.json',
  'sessions.json',
  'sign-ins.json',
];
