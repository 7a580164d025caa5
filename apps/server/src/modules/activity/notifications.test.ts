import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ActivityFeedResponseSchema,
  NotificationsResponseSchema,
  type ActivityEventType,
} from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { createTestPartner, decideAtBank, requestTestConsent } from '../consents/testing';
import { buyer } from '../../test/payments';
import { sendDueReminders } from '../reminders/service';
import { recordActivity } from './record';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the bell after a purchase', () => {
  it('tells of the settled payment, then of the plan ending at each reminder, once each', async () => {
    const b = await buyer(t, { durationDays: 30 });
    // days pass in this test: each look signs in afresh, as the customer would
    const bell = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/notifications',
        headers: await authHeaders(t, b.customer.id),
      });
      expect(res.statusCode).toBe(200);
      return NotificationsResponseSchema.parse(res.json());
    };
    expect((await bell()).unseen).toBe(0);

    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    await b.checkout(checkoutPath, 'pay');

    const afterPayment = await bell();
    expect(afterPayment.unseen).toBeGreaterThanOrEqual(1);
    expect(afterPayment.notifications.map((n) => n.type)).toContain('payment_completed');
    const seen = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/seen',
      headers: await authHeaders(t, b.customer.id),
      payload: { upTo: afterPayment.notifications[0]!.createdAt },
    });
    expect(seen.json()).toEqual({ success: true, unseen: 0 });

    // a look at the bell tells nothing new by itself; the reminders job does, once a threshold
    t.clock.advance(20 * DAY_MS);
    expect((await bell()).unseen).toBe(0);
    await sendDueReminders(t.deps);
    const first = await bell();
    expect(first.unseen).toBe(1);
    expect(first.notifications[0]).toMatchObject({
      type: 'plan_ending',
      title: 'Your Professional plan ends in 10 days',
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/notifications/seen',
      headers: await authHeaders(t, b.customer.id),
      payload: { upTo: first.notifications[0]!.createdAt },
    });

    t.clock.advance(4 * DAY_MS);
    await sendDueReminders(t.deps);
    await sendDueReminders(t.deps);
    const ending = await bell();
    expect(ending.unseen).toBe(1);
    expect(ending.notifications[0]).toMatchObject({
      type: 'plan_ending',
      title: 'Your Professional plan ends in 6 days',
      seen: false,
    });
    expect((await bell()).unseen).toBe(1);

    // the purchase is in the account's feed too, with the order and the payment
    const feed = await t.app.inject({
      method: 'GET',
      url: '/api/activity?type=order',
      headers: await authHeaders(t, b.customer.id),
    });
    const types = ActivityFeedResponseSchema.parse(feed.json()).data.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['order_created', 'payment_completed', 'plan_ending']),
    );
  });
});

async function record(customerId: string, type: ActivityEventType, title: string) {
  t.clock.advance(1000);
  await recordActivity(t.deps.db, t.clock, {
    customerId,
    type,
    title,
    description: `${title} happened`,
    status: 'success',
  });
}

const markSeen = async (customerId: string, upTo: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/notifications/seen',
    headers: await authHeaders(t, customerId),
    payload: { upTo },
  });

const refreshStatus = async (customerId: string, consentId: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/consent/getstatus',
    headers: await authHeaders(t, customerId),
    payload: { consentId },
  });
  expect(res.statusCode).toBe(200);
};

const bellOf = async (customerId: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/notifications',
    headers: await authHeaders(t, customerId),
  });
  expect(res.statusCode).toBe(200);
  return NotificationsResponseSchema.parse(res.json());
};

describe('the bell and consents', () => {
  it("tells of each change of a consent's state, linking to the consent while it exists", async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const approved = await requestTestConsent(t, apiKey, customer.id);
    const rejected = await requestTestConsent(t, apiKey, customer.id);
    const revokedAtBank = await requestTestConsent(t, apiKey, customer.id);
    const deleted = await requestTestConsent(t, apiKey, customer.id);
    // a request still waiting is no news yet
    expect((await bellOf(customer.id)).unseen).toBe(0);

    await decideAtBank(t, approved.consentId, 'authorise');
    await decideAtBank(t, rejected.consentId, 'reject');
    await decideAtBank(t, revokedAtBank.consentId, 'authorise');
    for (const consent of [approved, rejected, revokedAtBank]) {
      t.clock.advance(1000);
      await refreshStatus(customer.id, consent.consentId);
    }
    t.clock.advance(1000);
    await t.deps.consents.provider.revokeConsent(revokedAtBank.consentId);
    await refreshStatus(customer.id, revokedAtBank.consentId);
    // a refresh that finds nothing changed tells nothing new
    t.clock.advance(1000);
    await refreshStatus(customer.id, approved.consentId);
    t.clock.advance(1000);
    const row = await t.deps.db.query.consents.findFirst({
      where: (c, { eq: is }) => is(c.consentId, deleted.consentId),
    });
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/user-consents/${row!.id}`,
      headers: await authHeaders(t, customer.id),
    });
    expect(removed.statusCode).toBe(200);

    const { unseen, notifications } = await bellOf(customer.id);
    expect(unseen).toBe(5);
    expect(notifications.map((n) => [n.type, n.target])).toEqual([
      ['consent_deleted', null],
      ['consent_expired', { kind: 'consent', id: revokedAtBank.consentId }],
      ['consent_approved', { kind: 'consent', id: revokedAtBank.consentId }],
      ['consent_rejected', { kind: 'consent', id: rejected.consentId }],
      ['consent_approved', { kind: 'consent', id: approved.consentId }],
    ]);

    // another customer's bell stays quiet
    const other = await createCustomer(t);
    expect(await bellOf(other.id)).toEqual({ success: true, unseen: 0, notifications: [] });
  });

  it('tells of a consent that reached its expiry time, linking to it', async () => {
    const customer = await createCustomer(t);
    const { apiKey } = await createTestPartner(t);
    const consent = await requestTestConsent(t, apiKey, customer.id, {
      expirationDateTime: new Date(t.clock.now().getTime() + DAY_MS).toISOString(),
    });
    t.clock.advance(2 * DAY_MS);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/user-consents/user/${customer.id}`,
      headers: await authHeaders(t, customer.id),
    });
    expect(list.statusCode).toBe(200);
    const { notifications } = await bellOf(customer.id);
    expect(notifications.map((n) => [n.type, n.target])).toEqual([
      ['consent_expired', { kind: 'consent', id: consent.consentId }],
    ]);
  });
});

describe('the bell and purchases', () => {
  it('tells of the payment and the plan it activated, both linking to the order', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    await b.checkout(checkoutPath, 'pay');

    const { notifications } = await bellOf(b.customer.id);
    const byType = new Map(notifications.map((n) => [n.type, n.target]));
    expect(byType.get('payment_completed')).toEqual({ kind: 'order', id: orderId });
    expect(byType.get('plan_activated')).toEqual({ kind: 'order', id: orderId });
    // the order being placed is the customer's own act, not news
    expect(byType.has('order_created')).toBe(false);
  });
});

describe('mark all read', () => {
  it("clears the customer's own count up to the newest shown, and leaves later news unread", async () => {
    const customer = await createCustomer(t);
    const other = await createCustomer(t);
    await record(customer.id, 'payment_completed', 'Paid');
    await record(customer.id, 'consent_approved', 'Approved');
    await record(other.id, 'consent_approved', 'Theirs');
    const shown = await bellOf(customer.id);
    expect(shown.unseen).toBe(2);

    const res = await markSeen(customer.id, shown.notifications[0]!.createdAt);
    expect(res.json()).toEqual({ success: true, unseen: 0 });
    expect((await bellOf(customer.id)).notifications.map((n) => n.seen)).toEqual([true, true]);
    // one customer marking all read leaves another's news unread
    expect((await bellOf(other.id)).unseen).toBe(1);

    await record(customer.id, 'consent_deleted', 'Deleted');
    const later = await bellOf(customer.id);
    expect(later.unseen).toBe(1);
    expect(later.notifications[0]).toMatchObject({ title: 'Deleted', seen: false, target: null });
  });

  it('refuses a request without a sign-in', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/seen',
      payload: { upTo: new Date().toISOString() },
    });
    expect(res.statusCode).toBe(401);
  });
});
