import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { buyer, dropWebhooks, withBusyGateway } from '../../test/payments';
import { orders } from './schema';
import { cancelOpenPaymentLinks } from './open-links';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const GATEWAY_AWAY =
  'Your pending payment could not be cancelled at the payment gateway. Please try again in a few minutes.';
const statusOf = async (orderId: string) =>
  (await t.deps.db.select().from(orders).where(eq(orders.id, orderId)))[0]?.status;
const linkStatus = async (linkId: string) =>
  (await t.deps.payments.gateway.fetchPaymentLink(linkId)).status;

describe("cancelling a customer's open payment links", () => {
  it("cancels the link of each of the customer's Pending orders, and no one else's", async () => {
    const b = await buyer(t);
    const first = await b.pay(await b.order());
    const second = await b.pay(await b.order());
    const unpaid = await b.order();
    const other = await buyer(t);
    const theirs = await other.pay(await other.order());

    const looked: string[] = [];
    const gateway = {
      ...t.deps.payments.gateway,
      fetchPaymentLink: (id: string) => {
        looked.push(id);
        return t.deps.payments.gateway.fetchPaymentLink(id);
      },
    };
    await cancelOpenPaymentLinks(
      { ...t.deps, payments: { ...t.deps.payments, gateway } },
      b.customer.id,
    );
    expect(await linkStatus(first.linkId)).toBe('cancelled');
    expect(await linkStatus(second.linkId)).toBe('cancelled');
    expect(await linkStatus(theirs.linkId)).toBe('created');
    expect(await statusOf(unpaid)).toBe('Pending');
    // a link cancelled needs no second look
    expect(looked).toEqual([]);
    // nothing is left to cancel: a second run asks the gateway nothing
    await withBusyGateway(t, () => cancelOpenPaymentLinks(t.deps, b.customer.id));
  });

  it('settles a link the gateway will not cancel because it was paid meanwhile', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    const restore = dropWebhooks(t);
    try {
      await b.checkout(checkoutPath, 'pay');
    } finally {
      restore();
    }
    expect(await statusOf(orderId)).toBe('Pending');
    await cancelOpenPaymentLinks(t.deps, b.customer.id);
    expect(await statusOf(orderId)).toBe('Completed');
  });

  it('stops, with the order as it was, while the gateway cannot be reached', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const { linkId } = await b.pay(orderId);
    await withBusyGateway(t, async () => {
      await expect(cancelOpenPaymentLinks(t.deps, b.customer.id)).rejects.toMatchObject({
        statusCode: 502,
        message: GATEWAY_AWAY,
      });
    });
    expect(await linkStatus(linkId)).toBe('created');
    expect(await statusOf(orderId)).toBe('Pending');
  });

  it('stops when the gateway refuses to cancel a link it still reports open, or partly paid', async () => {
    const b = await buyer(t);
    const { linkId } = await b.pay(await b.order());
    for (const status of ['created', 'partially_paid'] as const) {
      const gateway = {
        ...t.deps.payments.gateway,
        cancelPaymentLink: () => Promise.reject(new Error('refused')),
        fetchPaymentLink: async (id: string) => ({
          ...(await t.deps.payments.gateway.fetchPaymentLink(id)),
          status,
        }),
      };
      const deps = { ...t.deps, payments: { ...t.deps.payments, gateway } };
      await expect(cancelOpenPaymentLinks(deps, b.customer.id), status).rejects.toMatchObject({
        statusCode: 502,
        message: GATEWAY_AWAY,
      });
    }
    expect(await linkStatus(linkId)).toBe('created');
  });
});
