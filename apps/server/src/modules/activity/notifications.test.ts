import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityFeedResponseSchema, NotificationsResponseSchema } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders } from '../../test/customers';
import { buyer } from '../payments/test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;

describe('the bell after a purchase', () => {
  it('tells of the settled payment, then of the plan ending within 7 days, once each', async () => {
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

    t.clock.advance(20 * DAY);
    expect((await bell()).unseen).toBe(0);

    t.clock.advance(4 * DAY);
    const ending = await bell();
    expect(ending.unseen).toBe(1);
    expect(ending.notifications[0]).toMatchObject({ type: 'plan_ending', seen: false });
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
