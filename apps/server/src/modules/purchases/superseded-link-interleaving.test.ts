import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { sandboxPaymentLinks } from '../../sandbox/gateway/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { orders } from './schema';
import { createPayment } from './create-payment';
import { buyer, startPayment, totalRupees } from '../../test/payments';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * `db`, except that its first update statement waits for `between` before it runs: another
 * request's writes land exactly between this request's read of the order and its first write.
 */
function beforeFirstUpdate(db: Database, between: () => Promise<unknown>): Database {
  let armed = true;
  return new Proxy(db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== 'update') return value;
      return (...args: Parameters<Database['update']>) => {
        const builder = target.update(...args);
        const set = builder.set.bind(builder);
        return Object.assign(builder, {
          set: (...values: Parameters<typeof set>) => {
            const statement = set(...values);
            const run = statement.then.bind(statement);
            return Object.assign(statement, {
              then: async (...handlers: Parameters<typeof run>) => {
                if (armed) {
                  armed = false;
                  await between();
                }
                return run(...handlers);
              },
            });
          },
        });
      };
    },
  });
}

describe('a payment started again with other details, while another request replaces its link', () => {
  it('answers 409 and leaves the order with the other request’s link, the first one cancelled and no third made', async () => {
    const b = await buyer(t);
    const orderId = await b.order();
    const first = await b.pay(orderId);
    let other: Awaited<ReturnType<typeof startPayment>> | undefined;
    const db = beforeFirstUpdate(t.deps.db, async () => {
      other = await startPayment(t, b, orderId, { customer_email: `accounts-${b.customer.email}` });
    });

    // this request read the order with the first link; by its first write, the link is gone
    const taking = createPayment({ ...t.deps, db }, b.customer.id, {
      order_id: orderId,
      amount: totalRupees(b.plan.amountPaise),
      customer_name: b.customer.companyName,
      customer_email: `finance-${b.customer.email}`,
      customer_phone: b.customer.mobile,
      planType: b.plan.planType,
    });
    await expect(taking).rejects.toMatchObject({
      statusCode: 409,
      message: 'This payment was changed meanwhile. Please try again.',
    });

    expect(other?.statusCode).toBe(200);
    const secondId = new URL(other!.json().paymentUrl).pathname.split('/').at(-1)!;
    const [order] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      status: 'Pending',
      paymentLinkId: secondId,
      customerEmail: `accounts-${b.customer.email}`,
    });
    const links = await t.deps.db
      .select({ id: sandboxPaymentLinks.id, status: sandboxPaymentLinks.status })
      .from(sandboxPaymentLinks)
      .where(eq(sandboxPaymentLinks.referenceId, orderId));
    expect(Object.fromEntries(links.map((link) => [link.id, link.status]))).toEqual({
      [first.linkId]: 'cancelled',
      [secondId]: 'created',
    });
  });
});
