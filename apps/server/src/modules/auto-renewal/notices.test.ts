import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../lib/clock';
import { createTestApp, type TestApp } from '../../test/app';
import { renewingCustomer } from '../../test/auto-renewal';
import { answerAuthorisation } from '../../test/gateway-subscriptions';
import { activityEvents } from '../activity/schema';
import { sendPreDebitNotices } from './notices';
import { autoRenewals } from './schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(new Date()));

const noticesOf = (customerId: string) =>
  t.deps.db
    .select({ title: activityEvents.title, description: activityEvents.description })
    .from(activityEvents)
    .where(
      and(eq(activityEvents.customerId, customerId), eq(activityEvents.type, 'pre_debit_notice')),
    );

async function authorisedRenewal() {
  const renewing = await renewingCustomer(t);
  await answerAuthorisation(t, renewing.authoriseUrl, 'upi');
  const [row] = await t.deps.db
    .select()
    .from(autoRenewals)
    .where(eq(autoRenewals.customerId, renewing.customer.id));
  return { ...renewing, chargeAt: row!.chargeAt! };
}

describe('the pre-debit notice', () => {
  it('goes once, between 48 and 24 hours before the charge, by mail and in the bell', async () => {
    const { customer, chargeAt } = await authorisedRenewal();
    const hoursBefore = (hours: number) => new Date(chargeAt.getTime() - hours * HOUR_MS);

    t.clock.set(hoursBefore(49));
    await sendPreDebitNotices(t.deps);
    expect(await noticesOf(customer.id)).toHaveLength(0);

    t.clock.set(hoursBefore(30));
    expect(await sendPreDebitNotices(t.deps)).toBeGreaterThanOrEqual(1);
    await sendPreDebitNotices(t.deps);
    t.clock.set(hoursBefore(25));
    await sendPreDebitNotices(t.deps);
    const told = await noticesOf(customer.id);
    expect(told).toHaveLength(1);
    expect(told[0]!.title).toMatch(/^₹6,148\.77 will be debited on /);
    await expect
      .poll(async () =>
        (await t.outbox()).filter((m) => m.to === customer.email).map((m) => m.subject),
      )
      .toEqual([told[0]!.title]);
    const mail = (await t.outbox()).find((m) => m.to === customer.email)!;
    expect(mail.text).toContain('Method: UPI Autopay');
    expect(mail.text).toContain('turn auto-renewal off before then');
  });

  it('is not sent for a renewal turned off, nor inside the last 24 hours', async () => {
    const off = await authorisedRenewal();
    expect((await off.calls.stop()).status).toBe(200);
    const late = await authorisedRenewal();
    // too late for the one still on: a notice must come 24 hours ahead
    t.clock.set(new Date(late.chargeAt.getTime() - 23 * HOUR_MS));
    await sendPreDebitNotices(t.deps);
    expect(await noticesOf(late.customer.id)).toHaveLength(0);
    // in the window, the one turned off gets none
    t.clock.set(new Date(off.chargeAt.getTime() - 30 * HOUR_MS));
    await sendPreDebitNotices(t.deps);
    expect(await noticesOf(off.customer.id)).toHaveLength(0);
  });
});
