import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders } from '../../test/customers';
import { checkStatusPath } from '@portal/contract';
import { linkEvent, paidSilently, refundEvent, sendWebhook } from '../../test/payments';

// What the operator's metrics say of payments and webhooks (modules/metrics): each settlement
// counted once, after it commits, by its outcome and how it was learnt; each webhook by its end.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every sample of a counter, by its labels as written: `outcome="completed",via="webhook"`. */
async function counts(name: string): Promise<Record<string, number>> {
  const text = await t.deps.metrics.registry.metrics();
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`))
      .map((line) => {
        const [, labels, value] = /^[^{]+\{(.*)\} (\S+)$/.exec(line)!;
        return [labels!, Number(value)];
      }),
  );
}

/** How each counter moved while `work` ran. */
async function moved(name: string, work: () => Promise<unknown>) {
  const before = await counts(name);
  await work();
  const after = await counts(name);
  return Object.fromEntries(
    Object.entries(after)
      .map(([labels, value]) => [labels, value - (before[labels] ?? 0)] as const)
      .filter(([, change]) => change !== 0),
  );
}

describe('payments counted for the operator', () => {
  it('counts a paid webhook once, not its duplicate nor a second event of the same payment', async () => {
    const paid = await paidSilently(t);
    const event = linkEvent(paid, 'paid', 'pay_COUNTED');
    const answers: string[] = [];
    const webhooks = await moved('portal_payment_webhooks_total', async () => {
      const payments = await moved('portal_payments_total', async () => {
        for (const eventId of ['evt_counted_1', 'evt_counted_1', 'evt_counted_2']) {
          const res = await sendWebhook(t, 'payment_link.paid', event, { eventId });
          answers.push(res.json().message);
        }
      });
      expect(payments).toEqual({ 'outcome="completed",via="webhook"': 1 });
    });
    expect(answers).toEqual(['applied', 'duplicate', 'unchanged']);
    expect(webhooks).toEqual({
      'outcome="applied"': 1,
      'outcome="duplicate"': 1,
      'outcome="unchanged"': 1,
    });
  });

  it('counts a failed payment and a refund by their outcome', async () => {
    const unpaid = await paidSilently(t, 'fail');
    expect(
      await moved('portal_payments_total', () =>
        sendWebhook(t, 'payment_link.expired', {
          payment_link: linkEvent(unpaid, 'expired').payment_link,
        }),
      ),
    ).toEqual({ 'outcome="failed",via="webhook"': 1 });

    const paid = await paidSilently(t);
    await sendWebhook(t, 'payment_link.paid', linkEvent(paid, 'paid', 'pay_REFUNDED'));
    const { payment } = refundEvent('pay_REFUNDED', {
      id: 'rfnd_counted',
      amountPaise: paid.totalPaise,
    });
    expect(
      await moved('portal_payments_total', () => sendWebhook(t, 'payment.refunded', { payment })),
    ).toEqual({ 'outcome="refunded",via="webhook"': 1 });
  });

  it('counts a payment learnt by asking the gateway as a check', async () => {
    const paid = await paidSilently(t);
    const headers = await authHeaders(t, paid.b.customer.id);
    expect(
      await moved('portal_payments_total', () =>
        t.app.inject({ method: 'POST', url: checkStatusPath(paid.orderId), headers }),
      ),
    ).toEqual({ 'outcome="completed",via="check"': 1 });
  });

  it('counts webhooks it refuses and ones about nothing it knows', async () => {
    const paid = await paidSilently(t);
    const event = linkEvent(paid, 'paid', 'pay_REFUSED');
    expect(
      await moved('portal_payment_webhooks_total', async () => {
        const forged = await sendWebhook(t, 'payment_link.paid', event, { secret: 'x'.repeat(32) });
        expect(forged.statusCode).toBe(401);
        const other = await sendWebhook(t, 'payment.authorized', {});
        expect(other.json().message).toBe('ignored');
      }),
    ).toEqual({ 'outcome="refused"': 1, 'outcome="ignored"': 1 });
  });
});
