import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import {
  linkEvent,
  paidSilently,
  refundEvent,
  sendWebhook,
  settledEffects,
} from '../../test/payments';

// Each event the webhook acts on, arriving alone for a Pending (or paid) order: what it does to
// the order, and a payment.failed whose order note is no order id at all.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/payments/webhook events', () => {
  it.each(['payment_link.expired', 'payment_link.cancelled'])(
    'fails a Pending order on %s',
    async (event) => {
      const unpaid = await paidSilently(t, 'fail');
      const status = event.split('.')[1]!;
      const res = await sendWebhook(t, event, {
        payment_link: linkEvent(unpaid, status).payment_link,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: 'applied' });
      expect(await settledEffects(t, unpaid.orderId, unpaid.b.customer.id)).toMatchObject({
        status: 'Failed',
        receipts: 0,
        events: ['order_created', 'payment_failed'],
      });
    },
  );

  it('refunds a paid order on payment.refunded of its whole total', async () => {
    const paid = await paidSilently(t);
    await sendWebhook(t, 'payment_link.paid', linkEvent(paid, 'paid', 'pay_WHOLE'));
    const { payment } = refundEvent('pay_WHOLE', {
      id: 'rfnd_whole',
      amountPaise: paid.totalPaise,
    });
    const res = await sendWebhook(t, 'payment.refunded', { payment });
    expect(res.json()).toEqual({ success: true, message: 'applied' });
    expect((await settledEffects(t, paid.orderId, paid.b.customer.id)).status).toBe('Refunded');
  });

  it('answers 404 for payment.failed whose order note is no order id, and changes nothing', async () => {
    const unpaid = await paidSilently(t, 'fail');
    const payload = linkEvent(unpaid, 'failed');
    payload.payment.entity.notes = { order_id: 'not-an-order-id' };
    const res = await sendWebhook(t, 'payment.failed', { payment: payload.payment });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, message: 'Order not found' });
    expect((await settledEffects(t, unpaid.orderId, unpaid.b.customer.id)).status).toBe('Pending');
  });
});
