import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { paymentEvents } from './schema';
import {
  TEST_PLAN,
  linkEvent,
  paidSilently,
  refundEvent,
  sendWebhook,
  settledEffects,
} from '../../test/payments';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A Completed order, paid by `paymentId` at the current time. */
async function completedOrder(paymentId: string) {
  const paid = await paidSilently(t);
  const res = await sendWebhook(t, 'payment_link.paid', linkEvent(paid, 'paid', paymentId));
  expect(res.json().message).toBe('applied');
  await t.drawDocuments();
  const paidAt = t.clock.now();
  const stillPaid = {
    status: 'Completed',
    receipts: 1,
    plans: 1,
    periods: [
      {
        startsAt: paidAt.toISOString(),
        endsAt: new Date(paidAt.getTime() + TEST_PLAN.durationDays * DAY_MS).toISOString(),
      },
    ],
    events: ['order_created', 'payment_completed', 'plan_activated'],
  };
  return { ...paid, paymentId, paidAt, stillPaid };
}

const refund = (payload: unknown, eventId = `evt_${randomUUID()}`) =>
  sendWebhook(t, 'refund.processed', payload, { eventId });

describe('POST /api/payments/webhook with refund.processed', () => {
  it.each([
    ['one paisa short of the total', (total: number) => total - 1],
    ['half the total', (total: number) => Math.floor(total / 2)],
  ])(
    'keeps an order refunded %s Completed, with its plan and receipt, and records the refund against it',
    async (_, part) => {
      const order = await completedOrder(`pay_${randomUUID().slice(0, 8)}`);
      const eventId = `evt_${randomUUID()}`;
      const res = await refund(
        refundEvent(order.paymentId, { id: 'rfnd_P', amountPaise: part(order.totalPaise) }),
        eventId,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'unchanged' });

      expect(await settledEffects(t, order.orderId, order.b.customer.id)).toEqual(order.stillPaid);
      const [listed] = await order.b.history();
      expect(listed).toMatchObject({ _id: order.orderId, paymentStatus: 'Completed' });
      const invoice = await t.app.inject({ method: 'GET', url: listed!.receiptUrl! });
      expect(invoice.statusCode).toBe(200);
      expect(invoice.headers['content-type']).toBe('application/pdf');
      const [recorded] = await t.deps.db
        .select()
        .from(paymentEvents)
        .where(eq(paymentEvents.eventId, eventId));
      expect(recorded).toMatchObject({ event: 'refund.processed', orderId: order.orderId });
    },
  );

  it('refunds the order when partial refunds add up to its total', async () => {
    const order = await completedOrder('pay_SPLIT');
    const half = Math.floor(order.totalPaise / 2);
    const first = await refund(
      refundEvent(order.paymentId, { id: 'rfnd_S1', amountPaise: half, refundedSoFarPaise: half }),
    );
    expect(first.json().message).toBe('unchanged');
    expect((await settledEffects(t, order.orderId, order.b.customer.id)).status).toBe('Completed');

    t.clock.advance(DAY_MS);
    const second = await refund(
      refundEvent(order.paymentId, {
        id: 'rfnd_S2',
        amountPaise: order.totalPaise - half,
        refundedSoFarPaise: order.totalPaise,
      }),
    );
    expect(second.json().message).toBe('applied');
    expect(await settledEffects(t, order.orderId, order.b.customer.id)).toEqual({
      ...order.stillPaid,
      status: 'Refunded',
      periods: [{ startsAt: order.paidAt.toISOString(), endsAt: t.clock.now().toISOString() }],
      events: ['order_created', 'payment_completed', 'payment_refunded', 'plan_activated'],
    });
  });

  it("judges a refund by its own amount when the payment's running total is not sent", async () => {
    const order = await completedOrder('pay_BARE');
    const bare = (amount: number, id: string) => ({
      refund: { entity: { id, payment_id: order.paymentId, amount } },
    });
    expect((await refund(bare(order.totalPaise - 1, 'rfnd_B1'))).json().message).toBe('unchanged');
    expect((await settledEffects(t, order.orderId, order.b.customer.id)).status).toBe('Completed');
    expect((await refund(bare(order.totalPaise, 'rfnd_B2'))).json().message).toBe('applied');
    expect((await settledEffects(t, order.orderId, order.b.customer.id)).status).toBe('Refunded');
  });

  it('answers 404 to a refund of a payment it does not know, and records nothing', async () => {
    const eventId = `evt_${randomUUID()}`;
    const res = await refund(
      refundEvent('pay_UNKNOWN', { id: 'rfnd_U', amountPaise: 100 }),
      eventId,
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'Order not found' });
    const stored = await t.deps.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, eventId));
    expect(stored).toEqual([]);
  });
});
