import { randomUUID } from 'node:crypto';
import { asc, count, eq } from 'drizzle-orm';
import { orderAmount, paiseToRupees } from '@portal/contract';
import { createRazorpayGateway, hmacHex } from '../adapters/payment-gateway';
import { recordingServer } from '../sandbox/recording-server';
import type { TestApp } from './app';
import { authHeaders, createCustomer } from './customers';
import { activityEvents } from '../modules/activity/schema';
import { orders } from '../modules/purchases/schema';
import { customerPlans } from '../modules/plans/schema';
import { createPlan, type NewPlan } from '../modules/plans/service';
import { invoices } from '../modules/invoices/schema';

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

/** POST /api/create-payment for one of the buyer's orders, with the buyer's details, some replaced. */
export function startPayment(
  t: TestApp,
  b: Awaited<ReturnType<typeof buyer>>,
  orderId: string,
  details: { customer_name?: string; customer_email?: string; customer_phone?: string } = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/create-payment',
    headers: b.headers,
    payload: {
      order_id: orderId,
      amount: totalRupees(b.plan.amountPaise),
      customer_name: b.customer.companyName,
      customer_email: b.customer.email,
      customer_phone: b.customer.mobile,
      planType: b.plan.planType,
      ...details,
    },
  });
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

/** A Pending order whose checkout was paid (or failed) at the sandbox, with no word to the portal. */
export async function paidSilently(t: TestApp, outcome: 'pay' | 'fail' = 'pay') {
  const b = await buyer(t);
  const orderId = await b.order();
  const { linkId, checkoutPath } = await b.pay(orderId);
  const restore = dropWebhooks(t);
  const callback = await b.checkout(checkoutPath, outcome).finally(restore);
  const { totalPaise } = orderAmount(b.plan.amountPaise);
  return { b, orderId, linkId, callback, totalPaise };
}

/** Posts a webhook signed as the gateway signs it (or with another `secret`). */
export function sendWebhook(
  t: TestApp,
  event: string,
  payload: unknown,
  options: { eventId?: string; secret?: string } = {},
) {
  const body = JSON.stringify({ entity: 'event', event, payload, created_at: 1_780_000_000 });
  return signedWebhook(t, body, options);
}

/** Posts `body` as it is, however malformed, signed as the gateway signs (or with `secret`). */
export function signedWebhook(
  t: TestApp,
  body: string,
  { eventId = `evt_${randomUUID()}`, secret }: { eventId?: string; secret?: string } = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/webhook',
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': hmacHex(secret ?? t.deps.payments.settings.webhookSecret, body),
      'x-razorpay-event-id': eventId,
    },
    payload: body,
  });
}

/** The payload of a payment_link.* or payment.failed event about an order's link. */
export const linkEvent = (
  link: { linkId: string; orderId: string; totalPaise: number },
  status: string,
  paymentId = 'pay_TEST1',
) => ({
  payment_link: {
    entity: {
      id: link.linkId,
      reference_id: link.orderId,
      status,
      amount: link.totalPaise,
      amount_paid: status === 'paid' ? link.totalPaise : 0,
    },
  },
  payment: {
    entity: {
      id: paymentId,
      amount: link.totalPaise,
      status: status === 'paid' ? 'captured' : 'failed',
      notes: { order_id: link.orderId },
    },
  },
});

/** The payload of refund.processed: one refund, and all refunded of the payment so far. */
export const refundEvent = (
  paymentId: string,
  refund: { id: string; amountPaise: number; refundedSoFarPaise?: number },
) => ({
  refund: { entity: { id: refund.id, payment_id: paymentId, amount: refund.amountPaise } },
  payment: {
    entity: {
      id: paymentId,
      status: 'captured',
      amount_refunded: refund.refundedSoFarPaise ?? refund.amountPaise,
    },
  },
});

/**
 * Everything that settling writes about an order: its state, its receipts, the plan periods it
 * paid for, and each activity event of the customer (sorted, so a repeat shows as a duplicate).
 */
export async function settledEffects(t: TestApp, orderId: string, customerId: string) {
  const { db } = t.deps;
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const [r] = await db.select({ n: count() }).from(invoices).where(eq(invoices.orderId, orderId));
  const periods = await db
    .select({ startsAt: customerPlans.startsAt, endsAt: customerPlans.endsAt })
    .from(customerPlans)
    .where(eq(customerPlans.orderId, orderId))
    .orderBy(asc(customerPlans.startsAt));
  const events = await db
    .select({ type: activityEvents.type })
    .from(activityEvents)
    .where(eq(activityEvents.customerId, customerId));
  return {
    status: order!.status,
    receipts: r!.n,
    plans: periods.length,
    periods: periods.map((p) => ({
      startsAt: p.startsAt.toISOString(),
      endsAt: p.endsAt.toISOString(),
    })),
    events: events.map((e) => e.type).sort(),
  };
}

/** Runs `work` with the gateway answering 503 "Gateway busy" to every call, then restores it. */
export async function withBusyGateway(
  t: TestApp,
  work: (busy: Awaited<ReturnType<typeof recordingServer>>) => Promise<void>,
) {
  const busy = await recordingServer(() => ({
    status: 503,
    body: JSON.stringify({ error: { description: 'Gateway busy' } }),
  }));
  const sandbox = t.deps.payments.gateway;
  t.deps.payments.gateway = createRazorpayGateway(
    { ...t.deps.payments.settings, baseUrl: busy.url },
    fetch,
  );
  try {
    await work(busy);
  } finally {
    t.deps.payments.gateway = sandbox;
    await busy.close();
  }
}
