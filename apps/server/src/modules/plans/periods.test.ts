import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderRef, type PlansResponse, type User } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders } from '../../test/customers';
import { buyer } from '../../test/payments';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const at = (ms: number) => new Date(ms).toISOString();

/** A customer with a 30-day plan, and the screens' reads of it. */
async function thirtyDayBuyer() {
  const b = await buyer(t, { planName: 'Starter', durationDays: 30 });
  const get = async (url: string) => {
    // a fresh session: the tests move the clock past the access token's life
    const headers = await authHeaders(t, b.customer.id);
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  /** Orders, pays at the sandbox and comes back through the callback; answers the redirect. */
  async function buy(outcome: 'pay' | 'fail' = 'pay') {
    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    const callback = await b.checkout(checkoutPath, outcome);
    const back = await t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    return { orderId, back };
  }
  return {
    ...b,
    buy,
    profile: async () => ((await get('/api/auth/profile')).data.user as User).plan,
    plans: async () => (await get('/api/plans')).data as PlansResponse['data'],
    orders: async () => (await get('/api/orders/history')).orders as Record<string, unknown>[],
  };
}

describe('the plan period after a renewal', () => {
  it('ends where the last period paid for ends, on the profile, the Plans screen and the orders', async () => {
    const b = await thirtyDayBuyer();
    const now = t.clock.now().getTime();
    const first = await b.buy();
    t.clock.advance(60_000);
    const second = await b.buy();
    t.clock.advance(DAY_MS - 60_000);

    // the renewal starts where the plan in force ends: one end date for the whole account
    expect(await b.profile()).toMatchObject({
      planName: 'Starter',
      startDate: at(now),
      endDate: at(now + 60 * DAY_MS),
    });

    const { current, purchases, plans } = await b.plans();
    expect(current).toEqual({
      planId: b.plan.id,
      planName: 'Starter',
      periodStartDate: at(now),
      periodEndDate: at(now + 30 * DAY_MS),
      endDate: at(now + 60 * DAY_MS),
      daysLeft: 59,
      queued: [
        {
          orderId: second.orderId,
          planId: b.plan.id,
          planName: 'Starter',
          startDate: at(now + 30 * DAY_MS),
          endDate: at(now + 60 * DAY_MS),
        },
      ],
    });
    // buying it a third time would extend the plan by its duration again
    expect(purchases.find((p) => p.planId === b.plan.id)).toEqual({
      planId: b.plan.id,
      startDate: at(now + 60 * DAY_MS),
      endDate: at(now + 90 * DAY_MS),
      change: 'renewal',
      daysKept: 59,
    });
    expect(purchases).toHaveLength(plans.length);

    // the invoices' service periods are the same periods
    const orders = await b.orders();
    expect(orders.find((o) => o._id === second.orderId)?.servicePeriod).toEqual({
      startDate: at(now + 30 * DAY_MS),
      endDate: at(now + 60 * DAY_MS),
    });
    expect(orders.find((o) => o._id === first.orderId)?.servicePeriod).toEqual({
      startDate: at(now),
      endDate: at(now + 30 * DAY_MS),
    });
  });

  it('moves on to the queued period once the first one is over', async () => {
    const b = await thirtyDayBuyer();
    const now = t.clock.now().getTime();
    await b.buy();
    await b.buy();
    t.clock.advance(31 * DAY_MS);
    expect(await b.profile()).toMatchObject({
      startDate: at(now + 30 * DAY_MS),
      endDate: at(now + 60 * DAY_MS),
    });
    const { current } = await b.plans();
    expect(current).toMatchObject({ endDate: at(now + 60 * DAY_MS), daysLeft: 29, queued: [] });
  });

  it('has no plan and offers a period from now to a customer without one', async () => {
    const b = await thirtyDayBuyer();
    const now = t.clock.now().getTime();
    await b.buy('fail');
    expect(await b.profile()).toBeNull();
    const { current, purchases } = await b.plans();
    expect(current).toBeNull();
    expect(purchases.find((p) => p.planId === b.plan.id)).toEqual({
      planId: b.plan.id,
      startDate: at(now),
      endDate: at(now + 30 * DAY_MS),
      change: 'new',
      daysKept: 0,
    });
  });
});

describe('GET /api/payments/callback', () => {
  it('brings the customer back to the order history naming the order, paid or not', async () => {
    const b = await thirtyDayBuyer();
    for (const outcome of ['pay', 'fail'] as const) {
      const { orderId, back } = await b.buy(outcome);
      expect(back.statusCode).toBe(303);
      expect(back.headers.location).toBe(`/orders?tab=history&order=${orderId}`);
    }
  });
});

describe('GET /api/orders/history', () => {
  it('gives the invoice number of a Completed order only', async () => {
    const b = await thirtyDayBuyer();
    const paid = await b.buy();
    const failed = await b.buy('fail');
    const pending = await b.order();
    const orders = await b.orders();
    const byId = (id: string) => orders.find((o) => o._id === id)!;
    expect(byId(paid.orderId).invoiceNumber).toMatch(/^INV\/\d\d-\d\d\/\d{6}$/);
    for (const id of [failed.orderId, pending]) {
      expect(byId(id)).toMatchObject({ invoiceNumber: null, servicePeriod: null });
    }
  });
});

describe('the payment description sent to the gateway', () => {
  it('names the order as every screen does', async () => {
    const b = await thirtyDayBuyer();
    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    const page = await t.app.inject({ method: 'GET', url: checkoutPath });
    expect(orderRef(orderId)).toMatch(/^#[0-9A-F]{6}$/);
    expect(page.body).toContain(`Starter plan, order ${orderRef(orderId)}`);
  });
});
