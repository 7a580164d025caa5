import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PRIVACY_NOTICE_VERSION,
  preferencesPaths,
  privacyMessages,
  privacyPaths,
} from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { auditOf, byCustomer } from '../../test/audit';
import { authHeaders, createCustomer } from '../../test/customers';
import { privacyNoticeReads } from './schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const status = async (headers: Headers) =>
  (await t.app.inject({ method: 'GET', url: privacyPaths.notice, headers })).json();
const read = (headers: Headers, version: string) =>
  t.app.inject({ method: 'POST', url: privacyPaths.notice, headers, payload: { version } });
const withdraw = (headers: Headers) =>
  t.app.inject({ method: 'POST', url: privacyPaths.withdrawOptional, headers });

describe('the privacy notice', () => {
  it('is unread until the customer reads its version, and a second reading keeps the first time', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    expect((await status(headers)).data).toEqual({ version: PRIVACY_NOTICE_VERSION, readAt: null });

    const first = await read(headers, PRIVACY_NOTICE_VERSION);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      success: true,
      message: privacyMessages.noticeRead,
      data: { version: PRIVACY_NOTICE_VERSION, readAt: t.clock.now().toISOString() },
    });
    const readAt = t.clock.now().toISOString();
    t.clock.advance(60_000);
    expect((await read(headers, PRIVACY_NOTICE_VERSION)).json().data.readAt).toBe(readAt);
    expect((await status(headers)).data.readAt).toBe(readAt);
  });

  it('shows a changed notice again, and refuses a reading of an older version', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    // read once, before the notice took its present words
    await t.deps.db
      .insert(privacyNoticeReads)
      .values({ customerId: customer.id, version: '2026-01-01', readAt: t.clock.now() });
    expect((await status(headers)).data.readAt).toBeNull();
    const stale = await read(headers, '2026-01-01');
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(privacyMessages.noticeChanged);
    t.clock.advance(60_000);
    expect((await read(headers, PRIVACY_NOTICE_VERSION)).json().data.readAt).toBe(
      t.clock.now().toISOString(),
    );
  });

  it('refuses bad input and needs a signed-in customer', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    for (const payload of [{}, { version: '' }, { version: 'x'.repeat(21) }, { version: 7 }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: privacyPaths.notice,
        headers,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await status(headers)).data.readAt).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: privacyPaths.notice })).statusCode).toBe(401);
    expect((await read({}, PRIVACY_NOTICE_VERSION)).statusCode).toBe(401);
    expect((await withdraw({})).statusCode).toBe(401);
  });
});

describe('withdrawing optional consent', () => {
  it('turns every optional e-mail off in one step, audited, and is safe to repeat', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const preferences = async () =>
      (await t.app.inject({ method: 'GET', url: preferencesPaths.notifications, headers })).json()
        .data;
    expect(await preferences()).toEqual({ reminders: true, consentChanges: true });
    const res = await withdraw(headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: privacyMessages.optionalWithdrawn,
      data: { reminders: false, consentChanges: false },
    });
    expect(await preferences()).toEqual({ reminders: false, consentChanges: false });
    expect((await withdraw(headers)).statusCode).toBe(200);
    expect(await preferences()).toEqual({ reminders: false, consentChanges: false });
    expect(await auditOf(t, customer.id)).toContainEqual(
      byCustomer(customer.id, 'optional_processing_withdrawn'),
    );
  });
});
