import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStatusPath } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { paymentEvents } from './schema';
import {
  linkEvent,
  paidSilently,
  refundEvent,
  sendWebhook,
  settledEffects,
} from '../../test/payments';
import { DAY_MS } from '../../lib/clock';

// PostgreSQL only: here the requests below really interleave, each on its own connection, so the
// order's row lock and the event id's unique key are what keep the effects single.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const AT_ONCE = 12;

const checkStatus = (orderId: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: checkStatusPath(orderId), headers });

describe('settling one order from every path at once', () => {
  it('completes it once when webhooks, returns from checkout and status checks race', async () => {
    const paid = await paidSilently(t);
    const { b, orderId, callback } = paid;
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) => {
        if (i % 3 === 0) return sendWebhook(t, 'payment_link.paid', linkEvent(paid, 'paid'));
        if (i % 3 === 1)
          return t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
        return checkStatus(orderId, b.headers);
      }),
    );
    // nothing failed on the way: the losers saw a settled order, not a clash
    expect(answers.map((a) => a.statusCode).sort()).toEqual([
      ...Array(AT_ONCE / 3).fill(200),
      ...Array(AT_ONCE / 3).fill(200),
      ...Array(AT_ONCE / 3).fill(303),
    ]);
    const webhookLabels = answers
      .filter((_, i) => i % 3 === 0)
      .map((a) => a.json().message)
      .sort();
    // one path applied it; every webhook that came after found it Completed
    expect(webhookLabels.filter((label) => label === 'applied').length).toBeLessThanOrEqual(1);
    expect(await settledEffects(t, orderId, b.customer.id)).toEqual({
      status: 'Completed',
      receipts: 1,
      plans: 1,
      periods: [
        {
          startsAt: t.clock.now().toISOString(),
          endsAt: new Date(t.clock.now().getTime() + b.plan.durationDays * DAY_MS).toISOString(),
        },
      ],
      events: ['order_created', 'payment_completed', 'plan_activated'],
    });
  });

  it('refunds it once when a full refund arrives under many event ids at once', async () => {
    const paid = await paidSilently(t);
    await sendWebhook(t, 'payment_link.paid', linkEvent(paid, 'paid', 'pay_RACE_REFUND'));
    const refund = refundEvent('pay_RACE_REFUND', {
      id: 'rfnd_race',
      amountPaise: paid.totalPaise,
    });
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, () => sendWebhook(t, 'refund.processed', refund)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(AT_ONCE).fill(200));
    expect(answers.map((a) => a.json().message).sort()).toEqual([
      'applied',
      ...Array(AT_ONCE - 1).fill('unchanged'),
    ]);
    const effects = await settledEffects(t, paid.orderId, paid.b.customer.id);
    expect(effects).toMatchObject({ status: 'Refunded', receipts: 1, plans: 1 });
    expect(effects.events).toEqual([
      'order_created',
      'payment_completed',
      'payment_refunded',
      'plan_activated',
    ]);
  });

  it('stores and applies one delivery when the same event id arrives many times at once', async () => {
    const paid = await paidSilently(t, 'fail');
    const eventId = `evt_${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, () =>
        sendWebhook(t, 'payment.failed', linkEvent(paid, 'failed'), { eventId }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(AT_ONCE).fill(200));
    expect(answers.map((a) => a.json().message).sort()).toEqual([
      'applied',
      ...Array(AT_ONCE - 1).fill('duplicate'),
    ]);
    const stored = await t.deps.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, eventId));
    expect(stored).toHaveLength(1);
    expect((await settledEffects(t, paid.orderId, paid.b.customer.id)).events).toEqual([
      'order_created',
      'payment_failed',
    ]);
  });
});
