import { eq } from 'drizzle-orm';
import { vi } from 'vitest';
import { findCustomerById } from '../modules/users/service';
import { autoRenewalPaths, type AutoRenewalResponse } from '@portal/contract';
import type { TestApp } from './app';
import { authHeaders } from './customers';
import { customerWithPlan } from './reminders';
import { createPlan, type NewPlan } from '../modules/plans/service';
import { orders } from '../modules/purchases/schema';
import { autoRenewals, renewalCharges } from '../modules/auto-renewal/schema';
import { answerAuthorisation, runCharge } from './gateway-subscriptions';

/** A single-company plan on offer, for a customer who holds none yet. */
export const planOnOffer = (t: TestApp, plan: Partial<NewPlan> & Pick<NewPlan, 'planName'>) =>
  createPlan(t.deps.db, t.clock, {
    planType: 'Single',
    noOfCompany: 1,
    durationDays: 365,
    amountPaise: 2_999_00,
    ...plan,
  });

/** The customer's auto-renewal calls, with their session. */
export async function renewalCalls(t: TestApp, customerId: string) {
  const headers = await authHeaders(t, customerId);
  const call = async (method: 'GET' | 'POST' | 'DELETE', payload?: Record<string, unknown>) => {
    const res = await t.app.inject({
      method,
      url: autoRenewalPaths.renewal,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    return {
      status: res.statusCode,
      body: res.json() as AutoRenewalResponse & { message: string },
    };
  };
  return {
    read: () => call('GET'),
    start: (planId: string) => call('POST', { planId }),
    stop: () => call('DELETE'),
  };
}

/** A customer with a yearly plan paid for, and auto-renewal of it set up, not yet authorised. */
export async function renewingCustomer(t: TestApp) {
  const standing = await customerWithPlan(t, {
    planName: 'Annual',
    durationDays: 365,
    amountPaise: 4_999_00,
  });
  const calls = await renewalCalls(t, standing.customer.id);
  const started = await calls.start(standing.plan.id);
  if (started.status !== 200) throw new Error(`auto-renewal refused: ${JSON.stringify(started)}`);
  return { ...standing, calls, authoriseUrl: started.body.autoRenewal!.authoriseUrl! };
}

/** The orders auto-renewal charges made for a customer, with their payment ids. */
export const renewalOrdersOf = (t: TestApp, customerId: string) =>
  t.deps.db
    .select({ order: orders, paymentId: renewalCharges.paymentId })
    .from(renewalCharges)
    .innerJoin(orders, eq(orders.id, renewalCharges.orderId))
    .where(eq(orders.customerId, customerId));

/** Auto-renewal of `planId` turned on, authorised, and charged once. */
export async function renewedOnce(t: TestApp, customerId: string, planId: string) {
  const calls = await renewalCalls(t, customerId);
  const started = await calls.start(planId);
  if (started.status !== 200) throw new Error(`auto-renewal refused: ${JSON.stringify(started)}`);
  await answerAuthorisation(t, started.body.autoRenewal!.authoriseUrl!, 'upi');
  const [row] = await t.deps.db
    .select()
    .from(autoRenewals)
    .where(eq(autoRenewals.customerId, customerId));
  const charged = await runCharge(t, row!.subscriptionId, { outcome: 'success' });
  if (charged.status !== 200) throw new Error(`charge refused: ${JSON.stringify(charged.body)}`);
  // its receipt is mailed once the invoice is drawn: a test reading the newest mail waits for it
  await t.drawDocuments();
  await vi.waitFor(
    async () => {
      const customer = await findCustomerById(t.deps.db, customerId);
      const mails = (await t.outbox()).filter((m) => m.to === customer!.email);
      if (!mails.some((m) => m.subject.startsWith('Your invoice')))
        throw new Error('no receipt yet');
    },
    { timeout: 30_000, interval: 100 },
  );
  return { calls, subscriptionId: row!.subscriptionId };
}
