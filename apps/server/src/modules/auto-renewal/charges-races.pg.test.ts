import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { renewalOrdersOf, renewingCustomer } from '../../test/auto-renewal';
import {
  answerAuthorisation,
  captureWebhooks,
  losableWebhooks,
  runCharge,
} from '../../test/gateway-subscriptions';
import { sendWebhook } from '../../test/payments';
import { invoices } from '../invoices/schema';
import { customerPlans } from '../plans/schema';
import { reconcileAutoRenewals } from './reconcile';
import { autoRenewals } from './schema';

// PostgreSQL only: the deliveries below really interleave, each on its own connection, so the
// renewal's row lock and the payment's key are what keep one charge one order.
let t: TestApp;
let webhooksAbout: ReturnType<typeof captureWebhooks>;
let lost: ReturnType<typeof losableWebhooks>;
beforeAll(async () => {
  t = await createTestApp();
  lost = losableWebhooks(t);
  webhooksAbout = captureWebhooks(t);
});
afterAll(() => t.close());
beforeEach(() => {
  lost.now = false;
  t.clock.set(new Date());
});

const AT_ONCE = 100;

describe('one charge told many times at once', () => {
  it('extends the plan once and issues one invoice, with 100 deliveries racing, events out of order', async () => {
    const { customer, authoriseUrl } = await renewingCustomer(t);
    await answerAuthorisation(t, authoriseUrl, 'upi');
    const [{ subscriptionId }] = (await t.deps.db
      .select({ subscriptionId: autoRenewals.subscriptionId })
      .from(autoRenewals)
      .where(eq(autoRenewals.customerId, customer.id))) as [{ subscriptionId: string }];
    await runCharge(t, subscriptionId, { outcome: 'success' });
    const sent = webhooksAbout(subscriptionId);
    const charged = sent.find((w) => w.event === 'subscription.charged')!;
    const authenticated = sent.find((w) => w.event === 'subscription.authenticated')!;
    const deliveries = Array.from({ length: AT_ONCE }, (_, i) =>
      // every tenth is a late authentication, which must not take the status back
      i % 10 === 0
        ? sendWebhook(t, 'subscription.authenticated', {
            subscription: { entity: authenticated.subscription },
          })
        : sendWebhook(t, 'subscription.charged', {
            subscription: { entity: charged.subscription },
            payment: { entity: charged.payment },
          }),
    );
    const answers = await Promise.all(deliveries);
    expect(answers.filter((a) => a.statusCode !== 200).map((a) => a.body)).toEqual([]);
    const orders = await renewalOrdersOf(t, customer.id);
    expect(orders).toHaveLength(1);
    const periods = await t.deps.db
      .select()
      .from(customerPlans)
      .where(eq(customerPlans.customerId, customer.id));
    expect(periods).toHaveLength(2);
    await t.drawDocuments();
    expect(
      await t.deps.db.select().from(invoices).where(eq(invoices.orderId, orders[0]!.order.id)),
    ).toHaveLength(1);
    const [row] = await t.deps.db
      .select()
      .from(autoRenewals)
      .where(eq(autoRenewals.customerId, customer.id));
    expect(row!.gatewayStatus).toBe('active');
  });
});

describe('a lost charge found by reconciliation while its webhook comes late', () => {
  it('makes one order, with 50 deliveries and 50 reconciliation runs racing', async () => {
    const { customer, authoriseUrl } = await renewingCustomer(t);
    await answerAuthorisation(t, authoriseUrl, 'upi');
    const [renewal] = await t.deps.db
      .select()
      .from(autoRenewals)
      .where(eq(autoRenewals.customerId, customer.id));
    lost.now = true;
    await runCharge(t, renewal!.subscriptionId, { outcome: 'success' });
    lost.now = false;
    const charged = webhooksAbout(renewal!.subscriptionId).find(
      (w) => w.event === 'subscription.charged',
    )!;
    expect(charged.answered).toBe(503);
    t.clock.set(new Date(renewal!.chargeAt!.getTime() + 60_000));
    const log = { warn: () => undefined, info: () => undefined } as never;
    const racing = Array.from({ length: AT_ONCE }, (_, i) =>
      i % 2 === 0
        ? sendWebhook(t, 'subscription.charged', {
            subscription: { entity: charged.subscription },
            payment: { entity: charged.payment },
          }).then((res) => res.statusCode)
        : reconcileAutoRenewals(t.deps, log).then(({ failed }) => (failed === 0 ? 200 : 500)),
    );
    expect(await Promise.all(racing)).toEqual(Array(AT_ONCE).fill(200));
    expect(await renewalOrdersOf(t, customer.id)).toHaveLength(1);
    const periods = await t.deps.db
      .select()
      .from(customerPlans)
      .where(eq(customerPlans.customerId, customer.id));
    expect(periods).toHaveLength(2);
  });
});
