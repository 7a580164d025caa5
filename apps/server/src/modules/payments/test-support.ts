import { orderAmount, paiseToRupees } from '@portal/contract';
import type { TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { createPlan, type NewPlan } from '../plans/service';

export const TEST_PLAN: NewPlan = {
  planName: 'Professional',
  planType: 'Single',
  noOfCompany: 1,
  durationDays: 365,
  amountPaise: 4_999_00,
};

export const totalRupees = (basePaise: number) => paiseToRupees(orderAmount(basePaise).totalPaise);

/** A customer with a session, a plan, and helpers to order and pay through the sandbox. */
export async function buyer(t: TestApp, plan: Partial<NewPlan> = {}, customer = {}) {
  const c = await createCustomer(t, customer);
  const headers = await authHeaders(t, c.id);
  const p = await createPlan(t.deps.db, t.clock, { ...TEST_PLAN, ...plan });

  async function order(amount = totalRupees(p.amountPaise)) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers,
      payload: { planId: p.id, amount },
    });
    if (res.statusCode !== 201) throw new Error(`order failed: ${res.body}`);
    return res.json().order._id as string;
  }

  async function pay(orderId: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/create-payment',
      headers,
      payload: {
        order_id: orderId,
        amount: totalRupees(p.amountPaise),
        customer_name: c.companyName,
        customer_email: c.email,
        customer_phone: c.mobile,
        planType: p.planType,
      },
    });
    if (res.statusCode !== 200) throw new Error(`create-payment failed: ${res.body}`);
    const url = new URL(res.json().paymentUrl as string);
    const linkId = url.pathname.split('/').at(-1)!;
    return { url, linkId, checkoutPath: url.pathname };
  }

  /** Presses Pay or Fail on the sandbox checkout; answers the callback URL it redirects to. */
  async function checkout(checkoutPath: string, outcome: 'pay' | 'fail') {
    const res = await t.app.inject({
      method: 'POST',
      url: `${checkoutPath}/${outcome}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    if (res.statusCode !== 303) throw new Error(`checkout failed: ${res.statusCode} ${res.body}`);
    return new URL(res.headers.location as string);
  }

  async function history() {
    const res = await t.app.inject({ method: 'GET', url: '/api/orders/history', headers });
    return res.json().orders as {
      _id: string;
      paymentStatus: string;
      receiptUrl: string | null;
      planId: { _id: string; planName: string };
      formattedAmount: string;
      amount: number;
    }[];
  }

  return { customer: c, headers, plan: p, order, pay, checkout, history };
}

/** Stops the sandbox's webhooks from arriving (a webhook outage); returns the undo. */
export function dropWebhooks(t: TestApp): () => void {
  const original = t.deps.payments.fetch;
  t.deps.payments.fetch = async (url, init) => {
    if (url.includes('/api/payments/webhook')) throw new Error('webhook endpoint unreachable');
    return original(url, init);
  };
  return () => {
    t.deps.payments.fetch = original;
  };
}
