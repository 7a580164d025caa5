import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderAmount, paiseToRupees, type PlansResponse } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { activatePlan } from './activation';
import { createPlan } from './service';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const at = (ms: number) => new Date(ms).toISOString();

/** A customer 10 days into a 30-day Starter plan, and a larger Business plan on offer. */
async function starterCustomer() {
  const customer = await createCustomer(t);
  const starter = await createPlan(t.deps.db, t.clock, {
    planName: 'Starter',
    planType: 'Single',
    noOfCompany: 1,
    durationDays: 30,
    amountPaise: 499_00,
  });
  const business = await createPlan(t.deps.db, t.clock, {
    planName: 'Business',
    planType: 'Multi',
    noOfCompany: 5,
    durationDays: 180,
    amountPaise: 7_499_00,
  });
  const professional = await createPlan(t.deps.db, t.clock, {
    planName: 'Professional',
    planType: 'Single',
    noOfCompany: 1,
    durationDays: 365,
    amountPaise: 4_999_00,
  });
  const period = await t.deps.db.transaction((tx) =>
    activatePlan(tx, {
      customerId: customer.id,
      planId: starter.id,
      orderId: randomUUID(),
      durationDays: 30,
      now: t.clock.now(),
    }),
  );
  t.clock.advance(10 * DAY_MS);
  const headers = async () => authHeaders(t, customer.id);
  return { customer, starter, business, professional, period, headers };
}

async function catalogue(headers: Record<string, string>) {
  const res = await t.app.inject({ method: 'GET', url: '/api/plans', headers });
  expect(res.statusCode).toBe(200);
  return res.json().data as PlansResponse['data'];
}

/** Orders `planId` for `rupees`, pays at the sandbox and comes back; answers the order id. */
async function buy(headers: Record<string, string>, planId: string, rupees: number) {
  const order = await t.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers,
    payload: { planId, amount: rupees },
  });
  expect(order.statusCode).toBe(201);
  const orderId = order.json().order._id as string;
  const me = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers });
  const user = me.json().data.user;
  const payment = await t.app.inject({
    method: 'POST',
    url: '/api/create-payment',
    headers,
    payload: {
      order_id: orderId,
      amount: rupees,
      customer_name: user.company_name,
      customer_email: user.email,
      customer_phone: user.mobile,
      planType: 'Multi',
    },
  });
  expect(payment.statusCode).toBe(200);
  const checkout = new URL(payment.json().paymentUrl as string).pathname;
  const paid = await t.app.inject({
    method: 'POST',
    url: `${checkout}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  const back = new URL(paid.headers.location as string);
  await t.app.inject({ method: 'GET', url: back.pathname + back.search });
  return orderId;
}

describe('an upgrade to a larger plan (decision 040)', () => {
  it('says before payment that it starts when the current plan ends, keeping the days left', async () => {
    const { business, professional, starter, period, headers } = await starterCustomer();
    const { purchases } = await catalogue(await headers());
    const of = (id: string) => purchases.find((p) => p.planId === id);
    expect(of(business.id)).toEqual({
      planId: business.id,
      startDate: at(period.endsAt.getTime()),
      endDate: at(period.endsAt.getTime() + 180 * DAY_MS),
      change: 'upgrade',
      daysKept: 20,
    });
    // as many companies: another plan, not an upgrade; the same plan: a renewal
    expect(of(professional.id)).toMatchObject({ change: 'change', daysKept: 20 });
    expect(of(starter.id)).toMatchObject({
      change: 'renewal',
      startDate: at(period.endsAt.getTime()),
      daysKept: 20,
    });
  });

  it('charges the larger plan’s full price to the paisa, and its period follows the current one', async () => {
    const { business, period, headers } = await starterCustomer();
    const h = await headers();
    // ₹7,499 + 18 % GST ₹1,349.82 + 5 % handling ₹374.95: no credit for the 20 days kept
    expect(orderAmount(business.amountPaise)).toEqual({
      basePaise: 749_900,
      gstPaise: 134_982,
      handlingPaise: 37_495,
      totalPaise: 922_377,
    });
    const orderId = await buy(h, business.id, 9_223.77);
    const history = await t.app.inject({ method: 'GET', url: '/api/orders/history', headers: h });
    const order = (history.json().orders as Record<string, unknown>[]).find(
      (o) => o._id === orderId,
    );
    expect(order).toMatchObject({
      paymentStatus: 'Completed',
      amount: 9_223.77,
      servicePeriod: {
        startDate: at(period.endsAt.getTime()),
        endDate: at(period.endsAt.getTime() + 180 * DAY_MS),
      },
    });
    const { current } = await catalogue(h);
    expect(current).toMatchObject({
      planName: 'Starter',
      periodEndDate: at(period.endsAt.getTime()),
      endDate: at(period.endsAt.getTime() + 180 * DAY_MS),
    });
  });

  it('refuses an amount that takes off a credit for the unused days, and records no order', async () => {
    const { business, headers } = await starterCustomer();
    const h = await headers();
    const full = orderAmount(business.amountPaise).totalPaise;
    // 20 of Starter's 30 days, pro rata, as a client might subtract them
    const credited = paiseToRupees(full - Math.round((499_00 * 20) / 30));
    for (const amount of [credited, paiseToRupees(full - 1)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: h,
        payload: { planId: business.id, amount },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toMatch(/Amount does not match the plan's price/);
    }
    const history = await t.app.inject({ method: 'GET', url: '/api/orders/history', headers: h });
    expect(history.json().orders).toEqual([]);
  });
});

describe('a renewal', () => {
  it('bought after the plan ended starts at payment, not at the old end', async () => {
    const { starter, period, headers } = await starterCustomer();
    t.clock.advance(25 * DAY_MS);
    const h = await headers();
    const paidAt = t.clock.now().getTime();
    expect(paidAt).toBeGreaterThan(period.endsAt.getTime());
    const { current, purchases } = await catalogue(h);
    expect(current).toBeNull();
    expect(purchases.find((p) => p.planId === starter.id)).toEqual({
      planId: starter.id,
      startDate: at(paidAt),
      endDate: at(paidAt + 30 * DAY_MS),
      change: 'new',
      daysKept: 0,
    });
    await buy(h, starter.id, paiseToRupees(orderAmount(starter.amountPaise).totalPaise));
    const profile = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: h });
    expect(profile.json().data.user.plan).toMatchObject({
      startDate: at(paidAt),
      endDate: at(paidAt + 30 * DAY_MS),
    });
  });

  it('bought before the plan ends starts when it ends', async () => {
    const { starter, period, headers } = await starterCustomer();
    const h = await headers();
    await buy(h, starter.id, paiseToRupees(orderAmount(starter.amountPaise).totalPaise));
    const profile = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: h });
    expect(profile.json().data.user.plan).toMatchObject({
      startDate: at(period.startsAt.getTime()),
      endDate: at(period.endsAt.getTime() + 30 * DAY_MS),
    });
  });
});

describe('GET /api/plans', () => {
  it('tells a customer only about their own plan', async () => {
    await starterCustomer();
    const stranger = await createCustomer(t);
    const { current, purchases } = await catalogue(await authHeaders(t, stranger.id));
    expect(current).toBeNull();
    expect(new Set(purchases.map((p) => p.change))).toEqual(new Set(['new']));
    expect(new Set(purchases.map((p) => p.daysKept))).toEqual(new Set([0]));
  });
});
