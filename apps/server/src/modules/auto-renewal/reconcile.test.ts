import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { renewalCalls, renewalOrdersOf, renewingCustomer } from '../../test/auto-renewal';
import { answerAuthorisation, losableWebhooks, runCharge } from '../../test/gateway-subscriptions';
import { customerPlans } from '../plans/schema';
import { AUTHORISATION_WINDOW_MS } from './gateway-state';
import { reconcileAutoRenewals } from './reconcile';
import { autoRenewals } from './schema';

let t: TestApp;
let lost: ReturnType<typeof losableWebhooks>;
beforeAll(async () => {
  t = await createTestApp();
  lost = losableWebhooks(t);
});
afterAll(() => t.close());
beforeEach(() => {
  lost.now = false;
  t.clock.set(new Date());
});

const log = { warn: () => undefined, info: () => undefined } as never;

async function renewalOf(customerId: string) {
  const [row] = await t.deps.db
    .select()
    .from(autoRenewals)
    .where(eq(autoRenewals.customerId, customerId));
  return row!;
}

describe('reconciling auto-renewals', () => {
  it('records a charge whose webhooks were all lost, once, for the cycle the gateway billed', async () => {
    const { customer, endsAt, authoriseUrl } = await renewingCustomer(t);
    await answerAuthorisation(t, authoriseUrl, 'upi');
    const { subscriptionId, chargeAt } = await renewalOf(customer.id);
    lost.now = true;
    expect((await runCharge(t, subscriptionId, { outcome: 'success' })).status).toBe(200);
    expect(await renewalOrdersOf(t, customer.id)).toHaveLength(0);

    // before the charge is due, nothing is asked
    expect((await reconcileAutoRenewals(t.deps, log)).recorded).toBe(0);
    t.clock.set(new Date(chargeAt!.getTime() + 60_000));
    const first = await reconcileAutoRenewals(t.deps, log);
    expect(first.recorded).toBe(1);
    const again = await reconcileAutoRenewals(t.deps, log);
    expect(again.recorded).toBe(0);
    const [charged] = await renewalOrdersOf(t, customer.id);
    expect(charged!.order.status).toBe('Completed');
    const periods = await t.deps.db
      .select()
      .from(customerPlans)
      .where(eq(customerPlans.customerId, customer.id));
    expect(periods.map((p) => p.startsAt)).toContainEqual(endsAt);
    // read back: the next charge a year on
    expect((await renewalOf(customer.id)).chargeAt!.getTime()).toBeGreaterThan(chargeAt!.getTime());
  });

  it('finds a subscription cancelled at the cycle’s end in silence, and ends the renewal', async () => {
    const { customer, calls, authoriseUrl } = await renewingCustomer(t);
    await answerAuthorisation(t, authoriseUrl, 'upi');
    const { subscriptionId, chargeAt } = await renewalOf(customer.id);
    await runCharge(t, subscriptionId, { outcome: 'success' });
    expect((await calls.stop()).body.autoRenewal).toMatchObject({ status: 'ending' });
    lost.now = true;
    await runCharge(t, subscriptionId, { outcome: 'success' });
    expect(await renewalOrdersOf(t, customer.id)).toHaveLength(1);
    const next = (await renewalOf(customer.id)).chargeAt ?? chargeAt!;
    t.clock.set(new Date(next.getTime() + 60_000));
    await reconcileAutoRenewals(t.deps, log);
    expect((await renewalOf(customer.id)).endedAt).not.toBeNull();
    expect(await renewalOrdersOf(t, customer.id)).toHaveLength(1);
  });

  it('ends a renewal whose mandate was not authorised in its day, which the gateway expires in silence', async () => {
    const { customer, calls } = await renewingCustomer(t);
    await reconcileAutoRenewals(t.deps, log);
    expect((await calls.read()).body.autoRenewal).toMatchObject({ status: 'authorising' });
    t.clock.set(new Date(t.clock.now().getTime() + AUTHORISATION_WINDOW_MS + 60_000));
    await reconcileAutoRenewals(t.deps, log);
    expect((await renewalOf(customer.id)).gatewayStatus).toBe('expired');
    // a day on, signed in again: off, and it can be turned on again
    const later = await renewalCalls(t, customer.id);
    expect(await later.read()).toMatchObject({ status: 200, body: { autoRenewal: null } });
    const again = await later.start((await renewalOf(customer.id)).planId);
    expect(again.body.autoRenewal).toMatchObject({ status: 'authorising' });
  });
});
