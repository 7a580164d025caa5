import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { activityEvents } from '../activity/schema';
import { remindersSent } from './schema';
import { sendDueReminders } from './service';
import { consentExpiring, customerWithPlan } from '../../test/reminders';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the reminders job on two instances at once', () => {
  it('sends each reminder once when two runs find it due together', async () => {
    const customers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const c = await customerWithPlan(t);
        await consentExpiring(t, c.customer.id, new Date(c.endsAt.getTime() - DAY_MS));
        return c;
      }),
    );
    t.clock.set(new Date(customers[0]!.endsAt.getTime() - 3 * DAY_MS));

    // two runs interleave on separate connections: each claims by inserting the key
    const sent = await Promise.all([sendDueReminders(t.deps), sendDueReminders(t.deps)]);
    expect(sent[0]! + sent[1]!).toBe(12);

    const mails = (await t.outbox()).filter((m) => /ends in|expires in/.test(m.subject));
    for (const { customer } of customers) {
      const theirs = mails.filter((m) => m.to === customer.email).map((m) => m.subject);
      expect(theirs.sort()).toEqual([
        'Your Quarterly plan ends in 3 days',
        expect.stringMatching(/^Your consent for .+ expires in 2 days$/),
      ]);
      const keys = await t.deps.db
        .select()
        .from(remindersSent)
        .where(eq(remindersSent.customerId, customer.id));
      expect(keys).toHaveLength(2);
      const bell = await t.deps.db
        .select()
        .from(activityEvents)
        .where(eq(activityEvents.customerId, customer.id));
      expect(bell.filter((e) => e.type === 'plan_ending')).toHaveLength(1);
    }
  });
});
