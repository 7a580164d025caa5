import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderAmount } from '@portal/contract';
import type { Queue } from '../../adapters/queue';
import { createTestApp, type TestApp } from '../../test/app';
import { orders } from '../purchases/schema';
import { settleOrder } from '../purchases/settlement';
import { TEST_PLAN, buyer, refundEvent, sendWebhook } from '../../test/payments';
import { creditNotes, invoices } from './schema';
import { paidOrder } from '../../test/invoices';

// PostgreSQL only: here the settlements and deliveries below really interleave, each on its
// own connection, so the counter row's lock and the invoice row's lock are what keep them right.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const AT_ONCE = 100;

describe('settling 100 orders at once', () => {
  it('numbers the invoices of those that commit with no gap and no repeat, though some roll back', async () => {
    t.clock.set(new Date('2032-06-01T06:00:00Z'));
    // a customer each: settlements of one customer wait for each other at the plan's activation
    const orderIds: string[] = [];
    for (let batch = 0; batch < AT_ONCE / 10; batch++) {
      const buyers = await Promise.all(Array.from({ length: 10 }, () => buyer(t)));
      orderIds.push(...(await Promise.all(buyers.map((b) => b.order()))));
    }
    const { totalPaise } = orderAmount(TEST_PLAN.amountPaise);
    // every tenth settlement fails after taking its number, as a queue outage would make it
    const failing = new Set(orderIds.filter((_, i) => i % 10 === 0));
    const queue: Queue = {
      ...t.deps.queue,
      send: async (executor, name, data, options) => {
        if (name === 'document-draw') {
          const [drawn] = await executor
            .select({ orderId: invoices.orderId })
            .from(invoices)
            .where(eq(invoices.id, (data as { id: string }).id));
          if (failing.has(drawn!.orderId)) throw new Error('queue unavailable');
        }
        return t.deps.queue.send(executor, name, data, options);
      },
    };
    const settle = (id: string) =>
      settleOrder({ ...t.deps, queue }, id, {
        kind: 'paid',
        paymentId: `pay_${id}`,
        amountPaise: totalPaise,
      });
    const outcomes = await Promise.allSettled(orderIds.map(settle));
    // the counter row serialises them, so some may wait longer for a connection than the pool
    // allows: those roll back like the failing ones, and settle when the gateway asks again
    const refused = orderIds.filter((_, i) => outcomes[i]!.status === 'rejected');
    expect(refused.filter((id) => failing.has(id))).toHaveLength(failing.size);
    // nothing else failed: no two settlements took the same number
    const reasons = outcomes.flatMap((o) =>
      o.status === 'rejected' ? [(o.reason as Error).message] : [],
    );
    expect(
      reasons.filter((r) => r !== 'queue unavailable' && !r.startsWith('timeout exceeded')),
    ).toEqual([]);
    for (const id of refused.filter((id) => !failing.has(id))) await settle(id);
    const numbers = (
      await t.deps.db
        .select({ number: invoices.invoiceNumber })
        .from(invoices)
        .where(inArray(invoices.orderId, orderIds))
    )
      .map((row) => row.number)
      .sort();
    expect(numbers).toEqual(
      Array.from(
        { length: AT_ONCE - failing.size },
        (_, i) => `INV/32-33/${String(i + 1).padStart(6, '0')}`,
      ),
    );
    // their ninety PDFs are drawn in this test's time, not in the wait of the next one's order
    await t.drawDocuments({ timeoutMs: 60_000 });
    // a hundred buyers made and their orders placed before the race: past 30 s on a busy host
  }, 120_000);
});

describe('100 deliveries of refund events at once', () => {
  const notesOf = (invoiceId: string) =>
    t.deps.db.select().from(creditNotes).where(eq(creditNotes.invoiceId, invoiceId));

  it('issue one credit note for one refunded amount, repeated or sent under other ids', async () => {
    const { invoice, paymentId } = await paidOrder(t);
    const half = Math.floor(invoice.totalPaise / 2);
    const event = refundEvent(paymentId, {
      id: 'rfnd_C',
      amountPaise: half,
      refundedSoFarPaise: half,
    });
    const repeatedId = `evt_${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        sendWebhook(t, i % 2 ? 'refund.processed' : 'payment.refunded', event, {
          eventId: i % 4 === 0 ? repeatedId : `evt_${randomUUID()}`,
        }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const notes = await notesOf(invoice.id);
    expect(notes.map((n) => n.totalPaise)).toEqual([half]);
    const [after] = await t.deps.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(after).toMatchObject({ creditedPaise: half, status: 'Partly refunded' });
  });

  it('credit the invoice exactly once in all when a partial and the full refund race', async () => {
    const { invoice, paymentId, order } = await paidOrder(t);
    const half = Math.floor(invoice.totalPaise / 2);
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) => {
        const soFar = i % 2 ? invoice.totalPaise : half;
        return sendWebhook(
          t,
          'refund.processed',
          refundEvent(paymentId, {
            id: `rfnd_${i % 2}`,
            amountPaise: soFar,
            refundedSoFarPaise: soFar,
          }),
        );
      }),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const notes = await notesOf(invoice.id);
    // the partial refund first and then the rest, or the whole at once: never more
    expect(notes.reduce((sum, n) => sum + n.totalPaise, 0)).toBe(invoice.totalPaise);
    expect(notes.length).toBeLessThanOrEqual(2);
    const [refunded] = await t.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(refunded!.status).toBe('Refunded');
  });
});
