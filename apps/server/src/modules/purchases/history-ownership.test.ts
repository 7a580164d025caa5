import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { buyer, refundEvent, sendWebhook } from '../../test/payments';
import { orders } from './schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/orders/history after a refund', () => {
  it('shows the service period of a paid order, and none once it is refunded', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    await b.checkout((await b.pay(orderId)).checkoutPath, 'pay');
    const page = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/orders/history', headers: b.headers })).json()
        .orders as { _id: string; paymentStatus: string; servicePeriod: unknown }[];
    expect((await page())[0]).toMatchObject({
      _id: orderId,
      paymentStatus: 'Completed',
      servicePeriod: { startDate: expect.any(String), endDate: expect.any(String) },
    });

    const [paid] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
    const refund = refundEvent(paid!.gatewayPaymentId!, {
      id: 'rfnd_H',
      amountPaise: paid!.totalPaise,
    });
    expect((await sendWebhook(t, 'refund.processed', refund)).json().message).toBe('applied');
    expect((await page())[0]).toMatchObject({
      _id: orderId,
      paymentStatus: 'Refunded',
      servicePeriod: null,
    });
  });
});
