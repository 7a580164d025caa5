import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityFeedResponseSchema, NotificationsResponseSchema } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { linkEvent, paidSilently, refundEvent, sendWebhook } from '../../test/payments';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // a moment whose date differs between India and UTC: the plan's end is dated in India
  t.clock.set(new Date('2026-06-01T20:00:00Z'));
});
afterAll(() => t.close());

/** What the customer's activity page shows, sorted by kind of event. */
async function activityOf(b: Awaited<ReturnType<typeof paidSilently>>['b']) {
  const res = await t.app.inject({ method: 'GET', url: '/api/activity', headers: b.headers });
  expect(res.statusCode).toBe(200);
  return ActivityFeedResponseSchema.parse(res.json())
    .data.map(({ type, title, description, status }) => ({ type, title, description, status }))
    .sort((x, y) => x.type.localeCompare(y.type));
}

const ordered = {
  type: 'order_created',
  title: 'Order created',
  description: 'Order for the Professional plan (₹6,148.77)',
  status: 'pending',
};

describe("the customer's activity after a payment", () => {
  it('says what was paid for which plan, and until when the plan runs', async () => {
    const paid = await paidSilently(t);
    await sendWebhook(t, 'payment_link.paid', linkEvent(paid, 'paid'));
    expect(await activityOf(paid.b)).toEqual([
      ordered,
      {
        type: 'payment_completed',
        title: 'Payment completed',
        description: 'Payment of ₹6,148.77 for the Professional plan',
        status: 'success',
      },
      {
        type: 'plan_activated',
        title: 'Plan activated',
        description: 'Professional plan active until 02/06/2027',
        status: 'success',
      },
    ]);
  });

  it('says that a failed payment did not go through', async () => {
    const failed = await paidSilently(t, 'fail');
    await sendWebhook(t, 'payment.failed', linkEvent(failed, 'failed'));
    expect(await activityOf(failed.b)).toEqual([
      ordered,
      {
        type: 'payment_failed',
        title: 'Payment failed',
        description: 'Payment for the Professional plan did not go through',
        status: 'failed',
      },
    ]);
  });

  it('says what was refunded for which plan', async () => {
    const paid = await paidSilently(t);
    await sendWebhook(t, 'payment_link.paid', linkEvent(paid, 'paid', 'pay_ACTIVITY'));
    const refund = refundEvent('pay_ACTIVITY', { id: 'rfnd_A', amountPaise: paid.totalPaise });
    expect((await sendWebhook(t, 'refund.processed', refund)).json().message).toBe('applied');
    expect((await activityOf(paid.b)).find((e) => e.type === 'payment_refunded')).toEqual({
      type: 'payment_refunded',
      title: 'Payment refunded',
      description: '₹6,148.77 for the Professional plan was refunded',
      status: 'failed',
    });
  });
});

describe("the bell's payment notifications", () => {
  it('each open the order they are about', async () => {
    const paid = await paidSilently(t);
    await sendWebhook(t, 'payment_link.paid', linkEvent(paid, 'paid', 'pay_BELL'));
    const refund = refundEvent('pay_BELL', { id: 'rfnd_B', amountPaise: paid.totalPaise });
    expect((await sendWebhook(t, 'refund.processed', refund)).json().message).toBe('applied');
    const failed = await paidSilently(t, 'fail');
    await sendWebhook(t, 'payment.failed', linkEvent(failed, 'failed'));

    const targets = async (b: typeof paid.b) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/notifications',
        headers: b.headers,
      });
      expect(res.statusCode).toBe(200);
      return NotificationsResponseSchema.parse(res.json())
        .notifications.map(({ type, target }) => ({ type, target }))
        .sort((x, y) => x.type.localeCompare(y.type));
    };
    const order = (id: string) => ({ kind: 'order', id });
    expect(await targets(paid.b)).toEqual([
      { type: 'payment_completed', target: order(paid.orderId) },
      { type: 'payment_refunded', target: order(paid.orderId) },
      { type: 'plan_activated', target: order(paid.orderId) },
    ]);
    expect(await targets(failed.b)).toEqual([
      { type: 'payment_failed', target: order(failed.orderId) },
    ]);
  });
});
