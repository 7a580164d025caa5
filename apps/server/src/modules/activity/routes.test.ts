import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ActivityFeedResponseSchema,
  NotificationsResponseSchema,
  type ActivityEventType,
  type ActivityStatus,
} from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { recordActivity } from './record';
import { activityEvents } from './schema';
import { sendDueReminders } from '../reminders/service';
import { consentExpiring, customerWithPlan } from '../../test/reminders';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function record(
  customerId: string,
  type: ActivityEventType,
  title: string,
  status: ActivityStatus = 'success',
) {
  t.clock.advance(1000);
  await recordActivity(t.deps.db, t.clock, {
    customerId,
    type,
    title,
    description: `${title} happened`,
    status,
  });
}

async function feed(customerId: string, query = '') {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/activity${query}`,
    headers: await authHeaders(t, customerId),
  });
  return res;
}

async function bell(customerId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/notifications',
    headers: await authHeaders(t, customerId),
  });
  expect(res.statusCode).toBe(200);
  return NotificationsResponseSchema.parse(res.json());
}

async function markSeen(customerId: string, upTo: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/notifications/seen',
    headers: await authHeaders(t, customerId),
    payload: { upTo },
  });
}

describe('GET /api/activity', () => {
  it("shows only the signed-in customer's own events, newest first", async () => {
    const mine = await createCustomer(t);
    const theirs = await createCustomer(t);
    await record(mine.id, 'signin', 'Signed in');
    await record(theirs.id, 'order_created', 'Their order');
    await record(mine.id, 'order_created', 'My order');

    const res = await feed(mine.id);
    expect(res.statusCode).toBe(200);
    const body = ActivityFeedResponseSchema.parse(res.json());
    expect(body.data.map((e) => e.title)).toEqual(['My order', 'Signed in']);
    expect(body.data[0]).toMatchObject({ type: 'order_created', kind: 'order', status: 'success' });
    expect(body.nextCursor).toBeNull();
  });

  it('pages with a cursor without gaps or repeats, even when events share a time', async () => {
    const customer = await createCustomer(t);
    for (let i = 1; i <= 7; i += 1) await record(customer.id, 'signin', `Event ${i}`);
    // three more in the same millisecond: the id breaks the tie
    t.clock.advance(1000);
    for (let i = 8; i <= 10; i += 1) {
      await recordActivity(t.deps.db, t.clock, {
        customerId: customer.id,
        type: 'signin',
        title: `Event ${i}`,
        description: 'same time',
        status: 'success',
      });
    }

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const body = ActivityFeedResponseSchema.parse((await feed(customer.id, query)).json());
      seen.push(...body.data.map((e) => e.title));
      cursor = body.nextCursor;
      pages += 1;
      // an event written meanwhile does not shift the pages already being read
      if (pages === 1) await record(customer.id, 'signin', 'Late event');
    } while (cursor);

    expect(pages).toBe(4);
    expect(seen).toHaveLength(10);
    expect(new Set(seen).size).toBe(10);
    // the three of one time come first, in id order; then the rest, newest first
    expect(seen.slice(0, 3).sort()).toEqual(['Event 10', 'Event 8', 'Event 9']);
    expect(seen.slice(3)).toEqual(Array.from({ length: 7 }, (_, i) => `Event ${7 - i}`));
  });

  it('filters by kind of event', async () => {
    const customer = await createCustomer(t);
    await record(customer.id, 'consent_approved', 'Consent approved');
    await record(customer.id, 'payment_completed', 'Payment completed');
    await record(customer.id, 'password_changed', 'Password changed');

    const titles = async (type: string) =>
      ActivityFeedResponseSchema.parse((await feed(customer.id, `?type=${type}`)).json()).data.map(
        (e) => e.title,
      );
    expect(await titles('consent')).toEqual(['Consent approved']);
    expect(await titles('order')).toEqual(['Payment completed']);
    expect(await titles('profile')).toEqual(['Password changed']);
  });

  it('answers bad input with a 400 naming it, and no token with a 401', async () => {
    const customer = await createCustomer(t);
    for (const query of ['?cursor=garbage', '?limit=0', '?limit=1000', '?type=everything']) {
      const res = await feed(customer.id, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/activity' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('recording events', () => {
  it('writes nothing when the transaction of the change fails', async () => {
    const customer = await createCustomer(t);
    await expect(
      t.deps.db.transaction(async (tx) => {
        await recordActivity(tx, t.clock, {
          customerId: customer.id,
          type: 'order_created',
          title: 'Order created',
          description: 'rolled back',
          status: 'pending',
        });
        throw new Error('the change itself failed');
      }),
    ).rejects.toThrow('the change itself failed');

    const rows = await t.deps.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.customerId, customer.id));
    expect(rows).toEqual([]);
  });
});

describe('notifications', () => {
  it('counts unseen payment and consent events, not sign-ins, and clears once seen', async () => {
    const customer = await createCustomer(t);
    expect(await bell(customer.id)).toEqual({ success: true, unseen: 0, notifications: [] });

    await record(customer.id, 'signin', 'Signed in');
    await record(customer.id, 'payment_completed', 'Payment completed');
    await record(customer.id, 'consent_rejected', 'Consent rejected', 'failed');
    const before = await bell(customer.id);
    expect(before.unseen).toBe(2);
    expect(before.notifications.map((n) => [n.title, n.seen])).toEqual([
      ['Consent rejected', false],
      ['Payment completed', false],
    ]);

    const res = await markSeen(customer.id, before.notifications[0]!.createdAt);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, unseen: 0 });
    const after = await bell(customer.id);
    expect(after.unseen).toBe(0);
    expect(after.notifications.every((n) => n.seen)).toBe(true);

    await record(customer.id, 'payment_failed', 'Payment failed', 'failed');
    expect((await bell(customer.id)).unseen).toBe(1);
  });

  it('keeps the marker per customer, never moves it back, nor past now', async () => {
    const customer = await createCustomer(t);
    const other = await createCustomer(t);
    await record(customer.id, 'consent_approved', 'Approved');
    await record(other.id, 'consent_approved', 'Other approved');
    const shown = (await bell(customer.id)).notifications[0]!;

    await markSeen(customer.id, shown.createdAt);
    await markSeen(customer.id, '2000-01-01T00:00:00.000Z');
    expect((await bell(customer.id)).unseen).toBe(0);
    expect((await bell(other.id)).unseen).toBe(1);

    // a marker in the future would hide events still to come
    await markSeen(other.id, '2100-01-01T00:00:00.000Z');
    await record(other.id, 'consent_expired', 'Expired', 'failed');
    expect((await bell(other.id)).unseen).toBe(1);
  });

  it('refuses a malformed marker with a 400', async () => {
    const customer = await createCustomer(t);
    const res = await markSeen(customer.id, 'yesterday');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: expect.stringContaining('upTo') });
  });

  it('tells of a plan ending and a consent expiring once per reminder, and writes nothing when looked at', async () => {
    const { customer, endsAt } = await customerWithPlan(t);
    const consent = await consentExpiring(t, customer.id, endsAt, {
      partnerName: 'Ledger Sync Ltd',
    });
    const eventsOf = () =>
      t.deps.db.select().from(activityEvents).where(eq(activityEvents.customerId, customer.id));
    const before = (await eventsOf()).length;
    // looking at the bell changes nothing, whatever is coming
    t.clock.set(new Date(endsAt.getTime() - 3 * DAY_MS));
    await bell(customer.id);
    await bell(customer.id);
    expect(await eventsOf()).toHaveLength(before);

    await sendDueReminders(t.deps);
    await sendDueReminders(t.deps);
    const { unseen, notifications } = await bell(customer.id);
    expect(unseen).toBe(2);
    expect(notifications.slice(0, 2)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'plan_ending',
          title: 'Your Quarterly plan ends in 3 days',
          target: null,
        }),
        expect.objectContaining({
          type: 'consent_expiring',
          kind: 'consent',
          title: 'Your consent for Ledger Sync Ltd expires in 3 days',
          description: expect.stringContaining('Reconnect to keep Ledger Sync Ltd reading'),
          target: { kind: 'consent', id: consent.consentId },
        }),
      ]),
    );
  });
});
