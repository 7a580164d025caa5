import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_STATUS_SUBJECT } from '../mail/templates';
import { preferencesMessages, preferencesPaths } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { createTestPartner, decideAtBank, requestTestConsent } from '../consents/testing';
import { wantsNotice } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const read = (headers: Headers) =>
  t.app.inject({ method: 'GET', url: preferencesPaths.notifications, headers });
const save = (headers: Headers, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: preferencesPaths.notifications,
    headers,
    payload: payload as object,
  });

describe('GET /api/preferences/notifications', () => {
  it('answers every notice on for a customer who never chose', async () => {
    const customer = await createCustomer(t);
    const res = await read(await authHeaders(t, customer.id));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: preferencesMessages.fetched,
      data: { reminders: true, consentChanges: true },
    });
  });

  it('refuses a request without a session', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: preferencesPaths.notifications })).statusCode,
    ).toBe(401);
  });
});

describe('PUT /api/preferences/notifications', () => {
  it('saves each switch for this customer only, and the read function answers them', async () => {
    const customer = await createCustomer(t);
    const other = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const res = await save(headers, { reminders: false, consentChanges: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ reminders: false, consentChanges: true });
    expect((await read(headers)).json().data).toEqual({ reminders: false, consentChanges: true });
    expect(await wantsNotice(t.deps.db, customer.id, 'reminders')).toBe(false);
    expect(await wantsNotice(t.deps.db, customer.id, 'consent-changes')).toBe(true);
    expect(await wantsNotice(t.deps.db, other.id, 'reminders')).toBe(true);

    await save(headers, { reminders: true, consentChanges: false });
    expect(await wantsNotice(t.deps.db, customer.id, 'reminders')).toBe(true);
    expect(await wantsNotice(t.deps.db, customer.id, 'consent-changes')).toBe(false);
  });

  it.each([
    ['a missing switch', { reminders: false }],
    ['a string for a switch', { reminders: 'no', consentChanges: true }],
    ['a switch for security notices', { reminders: true, consentChanges: true, security: false }],
  ])('refuses %s with a 400 and changes nothing', async (_what, payload) => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const res = await save(headers, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(res.json().message).toEqual(expect.any(String));
    expect((await read(headers)).json().data).toEqual({ reminders: true, consentChanges: true });
  });
});

describe('the consent status notice and the preference', () => {
  it('is not queued while consent changes are off, and is again once they are on', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const partner = await createTestPartner(t);
    const refresh = (consentId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/consent/getstatus',
        headers,
        payload: { consentId },
      });
    const notices = async (before: number) =>
      (await t.outbox())
        .slice(before)
        .filter((m) => m.to === customer.email && m.subject === CONSENT_STATUS_SUBJECT);

    await save(headers, { reminders: true, consentChanges: false });
    const muted = await requestTestConsent(t, partner.apiKey, customer.id);
    const before = (await t.outbox()).length;
    await decideAtBank(t, muted.consentId, 'authorise');
    expect((await refresh(muted.consentId)).statusCode).toBe(200);
    expect(await notices(before)).toEqual([]);

    await save(headers, { reminders: true, consentChanges: true });
    const told = await requestTestConsent(t, partner.apiKey, customer.id);
    await decideAtBank(t, told.consentId, 'authorise');
    expect((await refresh(told.consentId)).statusCode).toBe(200);
    const sent = await notices(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(`Consent: ${told.consentId}`);
  });
});
