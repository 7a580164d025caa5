import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { autoRenewalMessages, orderAmount } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { answerAuthorisation, captureWebhooks, runCharge } from '../../test/gateway-subscriptions';
import {
  planOnOffer,
  renewalCalls,
  renewalOrdersOf,
  renewedOnce,
  renewingCustomer,
} from '../../test/auto-renewal';
import { closeAccountOf } from '../../test/privacy';
import { authHeaders, createCustomer } from '../../test/customers';
import { sendWebhook } from '../../test/payments';
import { receiptSubject } from '../invoices/invoice-mail';
import { activityEvents } from '../activity/schema';
import { invoices } from '../invoices/schema';
import { customerPlans } from '../plans/schema';
import { autoRenewals } from './schema';

let t: TestApp;
let webhooksAbout: ReturnType<typeof captureWebhooks>;
beforeAll(async () => {
  t = await createTestApp();
  webhooksAbout = captureWebhooks(t);
});
afterAll(() => t.close());
// the sandbox gateway takes start_at and expire_by still to come by the wall clock
beforeEach(() => t.clock.set(new Date()));

const TOTAL = orderAmount(4_999_00).totalPaise;

const periodsOf = (customerId: string) =>
  t.deps.db
    .select()
    .from(customerPlans)
    .where(eq(customerPlans.customerId, customerId))
    .orderBy(asc(customerPlans.startsAt));

const activityOf = (customerId: string, type: string) =>
  t.deps.db
    .select()
    .from(activityEvents)
    .where(and(eq(activityEvents.customerId, customerId), eq(activityEvents.type, type)));

const renewalRow = async (customerId: string) =>
  (await t.deps.db.select().from(autoRenewals).where(eq(autoRenewals.customerId, customerId)))[0]!;

/** The subjects of the mails sent to an address, once the queue has sent them. */
const subjectsTo = async (email: string) =>
  (await t.outbox()).filter((m) => m.to === email).map((m) => m.subject);

/** The gateway counts in whole seconds. */
const toSecond = (at: Date) => new Date(Math.floor(at.getTime() / 1000) * 1000);

describe('auto-renewal, turned on and charged', () => {
  it('waits for the mandate, then charges at the plan’s end: one order, one period, one invoice', async () => {
    const { customer, plan, endsAt, calls, authoriseUrl } = await renewingCustomer(t);
    const waiting = await calls.read();
    expect(waiting.body.autoRenewal).toMatchObject({
      status: 'authorising',
      planId: plan.id,
      planName: 'Annual',
      method: null,
      maxAmount: TOTAL / 100,
      nextChargeDate: null,
      planEndDate: endsAt.toISOString(),
      authoriseUrl,
    });
    // asked again before authorising: the same mandate, not a second one
    const again = await calls.start(plan.id);
    expect(again.body.autoRenewal!.authoriseUrl).toBe(authoriseUrl);

    await answerAuthorisation(t, authoriseUrl, 'upi');
    const on = await calls.read();
    expect(on.body.autoRenewal).toMatchObject({
      status: 'on',
      method: 'upi',
      nextChargeDate: toSecond(endsAt).toISOString(),
      nextChargeAmount: TOTAL / 100,
      authoriseUrl: null,
    });
    expect(await activityOf(customer.id, 'auto_renewal_on')).toHaveLength(1);
    // nothing is charged before the plan ends
    expect(await renewalOrdersOf(t, customer.id)).toHaveLength(0);

    const { subscriptionId } = await renewalRow(customer.id);
    expect((await runCharge(t, subscriptionId, { outcome: 'success' })).status).toBe(200);
    const charged = await renewalOrdersOf(t, customer.id);
    expect(charged).toHaveLength(1);
    expect(charged[0]!.order).toMatchObject({ status: 'Completed', totalPaise: TOTAL });
    const periods = await periodsOf(customer.id);
    expect(periods).toHaveLength(2);
    // the next period starts where the first ends: the gateway's cycle, a calendar year
    expect(periods[1]!.startsAt).toEqual(endsAt);
    const yearLater = toSecond(endsAt);
    yearLater.setUTCFullYear(yearLater.getUTCFullYear() + 1);
    expect(periods[1]!.endsAt).toEqual(yearLater);
    await t.drawDocuments();
    const issued = await t.deps.db
      .select()
      .from(invoices)
      .where(eq(invoices.orderId, charged[0]!.order.id));
    expect(issued).toHaveLength(1);
    await expect
      .poll(() => subjectsTo(customer.email))
      .toEqual([receiptSubject(issued[0]!.invoiceNumber)]);
    const after = await calls.read();
    expect(after.body.autoRenewal).toMatchObject({
      status: 'on',
      planEndDate: yearLater.toISOString(),
      nextChargeDate: yearLater.toISOString(),
    });
  });

  it('takes a charge told again, under another event id, as the one it was', async () => {
    const { customer, authoriseUrl } = await renewingCustomer(t);
    await answerAuthorisation(t, authoriseUrl, 'card');
    const { subscriptionId } = await renewalRow(customer.id);
    await runCharge(t, subscriptionId, { outcome: 'success' });
    const sent = webhooksAbout(subscriptionId).find((w) => w.event === 'subscription.charged')!;
    expect(sent.answered).toBe(200);
    const replay = await sendWebhook(t, 'subscription.charged', {
      subscription: { entity: sent.subscription },
      payment: { entity: sent.payment },
    });
    expect(replay.json()).toMatchObject({ message: 'unchanged' });
    expect(await renewalOrdersOf(t, customer.id)).toHaveLength(1);
    expect(await periodsOf(customer.id)).toHaveLength(2);
  });

  it('charges a customer with no plan at once, when the mandate is authorised', async () => {
    const customer = await createCustomer(t);
    const plan = await planOnOffer(t, { planName: 'Half-yearly', durationDays: 180 });
    const calls = await renewalCalls(t, customer.id);
    const started = await calls.start(plan.id);
    expect(started.body.autoRenewal).toMatchObject({ status: 'authorising', planEndDate: null });
    await answerAuthorisation(t, started.body.autoRenewal!.authoriseUrl!, 'emandate');
    const [charged] = await renewalOrdersOf(t, customer.id);
    expect(charged!.order.status).toBe('Completed');
    const [period] = await periodsOf(customer.id);
    // six calendar months, the gateway's cycle for 180 days
    const end = toSecond(period!.startsAt);
    end.setUTCMonth(end.getUTCMonth() + 6);
    expect(period!.endsAt).toEqual(end);
    expect((await calls.read()).body.autoRenewal).toMatchObject({
      status: 'on',
      method: 'emandate',
    });
  });
});

describe('a charge that fails', () => {
  it('is retried, then halted with the plan’s end said, and a mail', async () => {
    const { customer, endsAt, calls, authoriseUrl } = await renewingCustomer(t);
    await answerAuthorisation(t, authoriseUrl, 'upi');
    const { subscriptionId } = await renewalRow(customer.id);
    await runCharge(t, subscriptionId, { outcome: 'failure' });
    const retrying = (await calls.read()).body.autoRenewal!;
    expect(retrying).toMatchObject({ status: 'retrying', authoriseUrl, nextChargeDate: null });
    const failed = await activityOf(customer.id, 'payment_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.title).toBe('Automatic payment failed');

    await runCharge(t, subscriptionId, { outcome: 'failure' });
    await runCharge(t, subscriptionId, { outcome: 'failure' });
    expect((await calls.read()).body.autoRenewal).toMatchObject({
      status: 'halted',
      planEndDate: endsAt.toISOString(),
      authoriseUrl,
    });
    const halted = await activityOf(customer.id, 'auto_renewal_halted');
    expect(halted).toHaveLength(1);
    expect(halted[0]!.description).toContain('unless you update your payment method');
    await expect
      .poll(() => subjectsTo(customer.email))
      .toEqual(['Automatic payments for your Annual plan stopped']);
    expect(await renewalOrdersOf(t, customer.id)).toHaveLength(0);

    // paid another way on the gateway's page: on again, the charge due made one order
    const page = await t.app.inject({ method: 'GET', url: new URL(authoriseUrl).pathname });
    expect(page.body).toContain('The last charge did not go through. Choose how to pay it.');
    await answerAuthorisation(t, authoriseUrl, 'card');
    expect((await calls.read()).body.autoRenewal).toMatchObject({ status: 'on', method: 'card' });
    expect(await renewalOrdersOf(t, customer.id)).toHaveLength(1);
    await runCharge(t, subscriptionId, { outcome: 'failure' });

    // turned off while retrying: cancelled at once, and off
    const stopped = await calls.stop();
    expect(stopped).toMatchObject({ status: 200, body: { autoRenewal: null } });
    expect((await renewalRow(customer.id)).endedAt).not.toBeNull();
  });
});

describe('turning auto-renewal off', () => {
  it('ends it at the cycle’s end: no charge follows, and the plan runs out', async () => {
    const { customer, endsAt, calls, authoriseUrl } = await renewingCustomer(t);
    await answerAuthorisation(t, authoriseUrl, 'upi');
    const { subscriptionId } = await renewalRow(customer.id);
    await runCharge(t, subscriptionId, { outcome: 'success' });
    const stopped = await calls.stop();
    expect(stopped.status).toBe(200);
    expect(stopped.body.autoRenewal).toMatchObject({ status: 'ending', nextChargeDate: null });
    expect(await activityOf(customer.id, 'auto_renewal_off')).toHaveLength(1);
    // twice is the same
    expect((await calls.stop()).body.autoRenewal).toMatchObject({ status: 'ending' });
    expect(await activityOf(customer.id, 'auto_renewal_off')).toHaveLength(1);
    // the gateway's next run cancels instead of charging
    await runCharge(t, subscriptionId, { outcome: 'success' });
    expect(await renewalOrdersOf(t, customer.id)).toHaveLength(1);
    expect((await calls.read()).body.autoRenewal).toBeNull();
    // the period paid for is kept to its end
    const periods = await periodsOf(customer.id);
    expect(periods.map((p) => p.startsAt)).toEqual([periods[0]!.startsAt, endsAt]);
  });

  it('before the mandate is authorised, cancels it at once', async () => {
    const { customer, calls, authoriseUrl } = await renewingCustomer(t);
    expect((await calls.stop()).body.autoRenewal).toBeNull();
    const page = await t.app.inject({ method: 'GET', url: new URL(authoriseUrl).pathname });
    expect(page.body).toContain('cancelled');
    expect((await renewalRow(customer.id)).gatewayStatus).toBe('cancelled');
  });
});

describe('closing the account', () => {
  it('cancels the mandate at the gateway first, so nothing is debited after', async () => {
    const customer = await createCustomer(t);
    const plan = await planOnOffer(t, {
      planName: 'Yearly',
      durationDays: 365,
      amountPaise: 999_00,
    });
    const { subscriptionId } = await renewedOnce(t, customer.id, plan.id);
    expect((await closeAccountOf(t, customer)).statusCode).toBe(200);
    const charge = await runCharge(t, subscriptionId, { outcome: 'success' });
    expect(charge.status).toBe(400);
    expect(
      await t.deps.db.select().from(autoRenewals).where(eq(autoRenewals.customerId, customer.id)),
    ).toEqual([]);
  });
});

describe('what auto-renewal refuses', () => {
  it('answers 4xx with a message and changes nothing', async () => {
    const { customer, plan, calls, authoriseUrl } = await renewingCustomer(t);
    await answerAuthorisation(t, authoriseUrl, 'upi');
    const twice = await calls.start(plan.id);
    expect(twice).toMatchObject({ status: 409, body: { message: autoRenewalMessages.alreadyOn } });
    expect((await calls.start('no-such-plan')).status).toBe(404);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/auto-renewal',
      headers: await authHeaders(t, customer.id),
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/auto-renewal' });
    expect(anonymous.statusCode).toBe(401);
    const rows = await t.deps.db
      .select()
      .from(autoRenewals)
      .where(eq(autoRenewals.customerId, customer.id));
    expect(rows).toHaveLength(1);

    const nobody = await renewalCalls(t, (await createCustomer(t)).id);
    expect(await nobody.stop()).toMatchObject({
      status: 404,
      body: { message: autoRenewalMessages.notOn },
    });
    expect((await nobody.read()).body.autoRenewal).toBeNull();
  });

  it('takes an event about a subscription it did not set up as a no-op', async () => {
    const res = await sendWebhook(t, 'subscription.charged', {
      subscription: { entity: { id: 'sub_elsewhere', status: 'active' } },
      payment: { entity: { id: 'pay_elsewhere', amount: 100, subscription_id: 'sub_elsewhere' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'ignored' });
  });
});
