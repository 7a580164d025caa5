import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { activityEvents } from '../activity/schema';
import { orders } from './schema';
import { settleOrder } from './settlement';
import { linkEvent, paidSilently, sendWebhook } from '../../test/payments';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const statusOf = async (orderId: string) =>
  (await t.deps.db.select({ s: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]!.s;

describe('settling an order', () => {
  it('answers the state each observation moved the order to, and that a repeat changed nothing', async () => {
    const { orderId, totalPaise } = await paidSilently(t);
    const paid = { kind: 'paid', paymentId: 'pay_S1', amountPaise: totalPaise } as const;
    expect(await settleOrder(t.deps, orderId, paid)).toEqual({
      changed: true,
      status: 'Completed',
    });
    expect(await settleOrder(t.deps, orderId, paid)).toEqual({
      changed: false,
      status: 'Completed',
    });
    const refunded = { kind: 'refunded', refundId: 'rfnd_S1' } as const;
    expect(await settleOrder(t.deps, orderId, refunded)).toEqual({
      changed: true,
      status: 'Refunded',
    });
    expect(await settleOrder(t.deps, orderId, refunded)).toEqual({
      changed: false,
      status: 'Refunded',
    });
    expect(await statusOf(orderId)).toBe('Refunded');
  });

  it('refuses an order that is not there, and records nothing', async () => {
    const before = (await t.deps.db.select({ n: count() }).from(activityEvents))[0]!.n;
    await expect(settleOrder(t.deps, randomUUID(), { kind: 'failed' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Order not found',
    });
    expect((await t.deps.db.select({ n: count() }).from(activityEvents))[0]!.n).toBe(before);
  });

  it('applies no payment short of the total: the webhook answers unchanged and the order stays Pending', async () => {
    const link = await paidSilently(t);
    const short = linkEvent(link, 'paid');
    short.payment_link.entity.amount_paid = link.totalPaise - 1;
    const res = await sendWebhook(t, 'payment_link.paid', short);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'unchanged' });
    expect(await statusOf(link.orderId)).toBe('Pending');
    expect(
      await settleOrder(t.deps, link.orderId, {
        kind: 'paid',
        paymentId: 'pay_S2',
        amountPaise: undefined,
      }),
    ).toEqual({
      changed: false,
      status: 'Pending',
      wrongAmount: { paidPaise: null, totalPaise: link.totalPaise },
    });
  });
});
