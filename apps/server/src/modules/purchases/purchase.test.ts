import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { activityEvents } from '../activity/schema';
import { currentPlanOf } from '../plans/current-plan';
import { buyer } from '../../test/payments';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('a purchase on the sandbox gateway', () => {
  it('completes a paid order, activates the plan and issues a receipt', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    expect((await b.history())[0]).toMatchObject({
      _id: orderId,
      paymentStatus: 'Pending',
      receiptUrl: null,
    });

    const { url, checkoutPath } = await b.pay(orderId);
    expect(url.pathname).toMatch(/^\/sandbox\/razorpay\/checkout\/plink_/);
    const page = await t.app.inject({ method: 'GET', url: checkoutPath });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Ledgerline Software Services Pvt Ltd');
    expect(page.body).toContain(`#${orderId.slice(0, 6).toUpperCase()}`);
    expect(page.body).toContain('₹6,148.77');
    expect(page.body).not.toContain('<script');

    const callback = await b.checkout(checkoutPath, 'pay');
    expect(callback.pathname).toBe('/api/payments/callback');
    const back = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`/orders?tab=history&order=${orderId}`);

    const [order] = await b.history();
    expect(order).toMatchObject({
      _id: orderId,
      paymentStatus: 'Completed',
      planId: { _id: b.plan.id, planName: 'Professional' },
      amount: 6148.77,
      formattedAmount: '₹6,148.77',
    });
    expect(order!.receiptUrl).toMatch(new RegExp(`^/api/orders/${orderId}/receipt\\?`));
    // the invoice is numbered as the payment settles, and its PDF drawn just after
    const early = await t.app.inject({ method: 'GET', url: order!.receiptUrl! });
    expect(early.statusCode).toBe(409);
    expect(early.headers['retry-after']).toBe('5');
    expect(early.json()).toEqual({
      success: false,
      message: 'This document is being prepared. Please try again in a moment.',
      error: 'being prepared',
    });
    await t.drawDocuments();
    const pdf = await t.app.inject({ method: 'GET', url: order!.receiptUrl! });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const plan = await currentPlanOf(t.deps.db, b.customer.id, t.clock.now());
    expect(plan).toMatchObject({
      planName: 'Professional',
      formattedDuration: '365 days',
      startDate: t.clock.now().toISOString(),
      endDate: new Date(t.clock.now().getTime() + 365 * 86_400_000).toISOString(),
      status: 'Active',
    });
    const events = await t.deps.db
      .select({ type: activityEvents.type })
      .from(activityEvents)
      .where(eq(activityEvents.customerId, b.customer.id));
    expect(events.map((e) => e.type).sort()).toEqual(
      ['order_created', 'payment_completed', 'plan_activated'].sort(),
    );
  });

  it('marks a failed payment Failed, without a receipt or a plan', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    const callback = await b.checkout(checkoutPath, 'fail');
    const back = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(back.statusCode).toBe(303);
    const [order] = await b.history();
    expect(order).toMatchObject({ _id: orderId, paymentStatus: 'Failed', receiptUrl: null });
    expect(await currentPlanOf(t.deps.db, b.customer.id, t.clock.now())).toBeNull();
    const events = await t.deps.db
      .select({ type: activityEvents.type })
      .from(activityEvents)
      .where(eq(activityEvents.customerId, b.customer.id));
    expect(events.map((e) => e.type).sort()).toEqual(['order_created', 'payment_failed']);
  });

  it('starts a second plan at the end of the one still in force', async () => {
    const b = await buyer(t, { durationDays: 30 });
    for (let i = 0; i < 2; i++) {
      const orderId = await b.order();
      const { checkoutPath } = await b.pay(orderId);
      await b.checkout(checkoutPath, 'pay');
    }
    const now = t.clock.now().getTime();
    const current = await currentPlanOf(t.deps.db, b.customer.id, t.clock.now());
    // the plan ends where the last period paid for ends
    expect(current?.endDate).toBe(new Date(now + 60 * 86_400_000).toISOString());
    const later = await currentPlanOf(t.deps.db, b.customer.id, new Date(now + 31 * 86_400_000));
    expect(later).toMatchObject({
      startDate: new Date(now + 30 * 86_400_000).toISOString(),
      endDate: new Date(now + 60 * 86_400_000).toISOString(),
    });
  });

  it('answers the same checkout URL when payment is started twice', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const first = await b.pay(orderId);
    const second = await b.pay(orderId);
    expect(second.url.toString()).toBe(first.url.toString());
  });

  it('refuses to pay a completed order again', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    await b.checkout(checkoutPath, 'pay');
    await expect(b.pay(orderId)).rejects.toThrow(/already paid/);
  });
});
