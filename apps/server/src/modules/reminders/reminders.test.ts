import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationsResponseSchema } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { authHeaders, createCustomer } from '../../test/customers';
import { linksOf } from '../../test/mail';
import { jobsOf } from '../../test/queue';
import { activityEvents } from '../activity/schema';
import { activatePlan, endPlanOfOrder } from '../plans/activation';
import { customerPlans } from '../plans/schema';
import { retirePlan } from '../plans/service';
import { savePreferences } from '../preferences/service';
import { remindersSent } from './schema';
import { REMINDER_BATCH, sendDueReminders } from './service';
import { consentExpiring, consentsExpiring, customerWithPlan } from '../../test/reminders';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The reminder mails sent to one address, oldest first. */
async function remindersTo(email: string) {
  return (await t.outbox()).filter(
    (mail) => mail.to === email && /ends in|expires in/.test(mail.subject),
  );
}

async function bellEventsOf(customerId: string) {
  return t.deps.db
    .select({ title: activityEvents.title, description: activityEvents.description })
    .from(activityEvents)
    .where(eq(activityEvents.customerId, customerId));
}

/**
 * What the job left for a customer: every mail to the address (whatever its subject says of the
 * days left), bell events and reminder keys. A run that sends nothing also records nothing, so
 * each later run sees the customer afresh.
 */
async function remindersLeftFor(customer: { id: string; email: string }) {
  return {
    mails: (await t.outbox()).filter((m) => m.to === customer.email).map((m) => m.subject),
    bell: await bellEventsOf(customer.id),
    keys: await t.deps.db
      .select({ subject: remindersSent.subject, threshold: remindersSent.thresholdDays })
      .from(remindersSent)
      .where(eq(remindersSent.customerId, customer.id)),
  };
}

const NOTHING = { mails: [], bell: [], keys: [] };

/** Runs the job with the clock at `msBeforeEnd` before `end`. */
async function runAt(end: Date, msBeforeEnd: number) {
  t.clock.set(new Date(end.getTime() - msBeforeEnd));
  return sendDueReminders(t.deps);
}

describe('the reminders of a plan’s end', () => {
  it('sends the 30-day reminder from 30 days before the end, not at 31, and once', async () => {
    const { customer, endsAt } = await customerWithPlan(t);
    await runAt(endsAt, 31 * DAY_MS);
    expect(await remindersTo(customer.email)).toHaveLength(0);

    await runAt(endsAt, 30 * DAY_MS);
    await runAt(endsAt, 30 * DAY_MS);
    await runAt(endsAt, 29 * DAY_MS);
    const mails = await remindersTo(customer.email);
    expect(mails.map((m) => m.subject)).toEqual(['Your Quarterly plan ends in 30 days']);
    expect(mails[0]!.text).toContain(
      `Your Quarterly plan ends on ${new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata' }).format(endsAt)}, in 30 days.`,
    );
    expect(await bellEventsOf(customer.id)).toContainEqual({
      title: 'Your Quarterly plan ends in 30 days',
      description: expect.stringContaining('Renew to continue without a break.'),
    });
  });

  it('sends the 7-day and the 1-day reminders when they are reached, and nothing after the end', async () => {
    const { customer, endsAt, plan } = await customerWithPlan(t);
    await runAt(endsAt, 30 * DAY_MS);
    await runAt(endsAt, 7 * DAY_MS + 1);
    expect(await remindersTo(customer.email)).toHaveLength(1);
    await runAt(endsAt, 7 * DAY_MS);
    await runAt(endsAt, 2 * DAY_MS);
    await runAt(endsAt, DAY_MS);
    await runAt(endsAt, 1);
    await runAt(endsAt, 0);
    await runAt(endsAt, -DAY_MS);
    const mails = await remindersTo(customer.email);
    expect(mails.map((m) => m.subject)).toEqual([
      'Your Quarterly plan ends in 30 days',
      'Your Quarterly plan ends in 7 days',
      'Your Quarterly plan ends in 1 day',
    ]);
    // Renew opens the order form on the same plan, in the text and as the HTML part's button
    expect(mails[2]!.text).toContain(`Renew: http://localhost:3000/orders?planId=${plan.id}`);
    expect(linksOf(mails[2]!.html)).toContain(`http://localhost:3000/orders?planId=${plan.id}`);
  });

  it('sends only the latest reminder due when the job runs late, and once when it runs twice', async () => {
    const { customer, endsAt } = await customerWithPlan(t);
    await runAt(endsAt, 5 * DAY_MS);
    await runAt(endsAt, 5 * DAY_MS);
    // the 7-day reminder (the smallest threshold reached), saying the days actually left
    expect((await remindersTo(customer.email)).map((m) => m.subject)).toEqual([
      'Your Quarterly plan ends in 5 days',
    ]);
    expect(
      await t.deps.db
        .select({ threshold: remindersSent.thresholdDays })
        .from(remindersSent)
        .where(eq(remindersSent.customerId, customer.id)),
    ).toEqual([{ threshold: 7 }]);
  });

  it('reminds of the new end after a renewal, and not of the old one', async () => {
    const first = await customerWithPlan(t, { durationDays: 10 });
    await runAt(first.endsAt, 7 * DAY_MS);
    // renewed 5 days before the end: the plan now ends 10 days later
    t.clock.set(new Date(first.endsAt.getTime() - 5 * DAY_MS));
    const renewal = await t.deps.db.transaction((tx) =>
      activatePlan(tx, {
        customerId: first.customer.id,
        planId: first.plan.id,
        orderId: randomUUID(),
        durationDays: 10,
        now: t.clock.now(),
      }),
    );
    expect(renewal.startsAt).toEqual(first.endsAt);
    // a day before the old end the new end is 11 days away: its 30-day reminder, no 1-day one
    await runAt(first.endsAt, DAY_MS);
    await runAt(renewal.endsAt, DAY_MS);
    expect((await remindersTo(first.customer.email)).map((m) => m.subject)).toEqual([
      'Your Quarterly plan ends in 7 days',
      'Your Quarterly plan ends in 11 days',
      'Your Quarterly plan ends in 1 day',
    ]);
  });

  it('sends nothing for a plan that ended before any reminder went out', async () => {
    // the job never ran while the plan was in force: no reminder key hides the end from it
    const { customer, endsAt } = await customerWithPlan(t, { durationDays: 10 });
    for (const msAfterEnd of [0, 1, DAY_MS, 20 * DAY_MS]) {
      await runAt(endsAt, -msAfterEnd);
      expect(await remindersLeftFor(customer), `${msAfterEnd} ms after the end`).toEqual(NOTHING);
    }
  });

  it('sends nothing for a plan a refund ended before its first reminder was due', async () => {
    const { customer, endsAt } = await customerWithPlan(t);
    const [period] = await t.deps.db
      .select({ orderId: customerPlans.orderId })
      .from(customerPlans)
      .where(eq(customerPlans.customerId, customer.id));
    // refunded 40 days before the end, 10 days before the 30-day reminder
    t.clock.set(new Date(endsAt.getTime() - 40 * DAY_MS));
    const refundedAt = t.clock.now();
    await t.deps.db.transaction((tx) => endPlanOfOrder(tx, period!.orderId, refundedAt));
    expect(
      await t.deps.db
        .select({ endsAt: customerPlans.endsAt })
        .from(customerPlans)
        .where(eq(customerPlans.customerId, customer.id)),
    ).toEqual([{ endsAt: refundedAt }]);

    // the job at the refund, on each day a reminder of the old end would have been due, at the old end
    const runs: [string, Date][] = [['at the refund', refundedAt]];
    for (const days of [30, 7, 1, 0]) {
      runs.push([`${days} days before the old end`, new Date(endsAt.getTime() - days * DAY_MS)]);
    }
    for (const [when, at] of runs) {
      t.clock.set(at);
      await sendDueReminders(t.deps);
      expect(await remindersLeftFor(customer), when).toEqual(NOTHING);
    }
  });

  it('sends Renew to the Plans screen when the plan is no longer offered', async () => {
    const { customer, endsAt, plan } = await customerWithPlan(t);
    await retirePlan(t.deps.db, t.clock, plan.id);
    await runAt(endsAt, DAY_MS);
    const [mail] = await remindersTo(customer.email);
    expect(mail!.text).toContain('Renew: http://localhost:3000/plans');
  });
});

describe('the reminders of a consent’s expiry', () => {
  it('sends one at 30, 7 and 1 days before an Approved consent expires, naming the partner', async () => {
    const { customer } = await customerWithPlan(t);
    const expiresAt = new Date(t.clock.now().getTime() + 40 * DAY_MS);
    const consent = await consentExpiring(t, customer.id, expiresAt, {
      partnerName: 'Ledger Sync Ltd',
    });
    for (const days of [31, 30, 29, 8, 7, 7, 1, 0.5, 0, -1]) await runAt(expiresAt, days * DAY_MS);
    const mails = (await remindersTo(customer.email)).filter((m) => /consent/.test(m.subject));
    expect(mails.map((m) => m.subject)).toEqual([
      'Your consent for Ledger Sync Ltd expires in 30 days',
      'Your consent for Ledger Sync Ltd expires in 7 days',
      'Your consent for Ledger Sync Ltd expires in 1 day',
    ]);
    expect(mails[0]!.text).toContain(
      `Reconnect: http://localhost:3000/consents?reconnect=${consent.id}`,
    );
    expect(mails[0]!.text).toContain(
      'After that, Ledger Sync Ltd will no longer be able to read your bank data',
    );
  });

  it('sends none for an Approved consent whose expiry passed before any reminder went out', async () => {
    // a customer without a plan, so that any reminder would be the consent's
    const customer = await createCustomer(t);
    const expiresAt = new Date(t.clock.now().getTime() + 10 * DAY_MS);
    // still Approved: nothing has yet stored its expiry
    await consentExpiring(t, customer.id, expiresAt);
    for (const msAfterExpiry of [0, 1, DAY_MS, 20 * DAY_MS]) {
      await runAt(expiresAt, -msAfterExpiry);
      expect(await remindersLeftFor(customer), `${msAfterExpiry} ms after the expiry`).toEqual(
        NOTHING,
      );
    }
  });

  it('sends none for a consent that is not Approved', async () => {
    const { customer } = await customerWithPlan(t);
    const expiresAt = new Date(t.clock.now().getTime() + 20 * DAY_MS);
    for (const status of ['Pending', 'Rejected', 'Expired']) {
      await consentExpiring(t, customer.id, expiresAt, { status });
    }
    await runAt(expiresAt, 6 * DAY_MS);
    expect((await remindersTo(customer.email)).filter((m) => /consent/.test(m.subject))).toEqual(
      [],
    );
  });
});

describe('a customer who turned reminders off', () => {
  it('gets no reminder mail nor bell event, and none later when turning them on again', async () => {
    const { customer, endsAt } = await customerWithPlan(t);
    const consent = await consentExpiring(t, customer.id, endsAt);
    await savePreferences(t.deps.db, t.clock, customer.id, {
      reminders: false,
      consentChanges: true,
    });
    await runAt(endsAt, 3 * DAY_MS);
    expect(await remindersTo(customer.email)).toEqual([]);
    expect(await bellEventsOf(customer.id)).toEqual([]);

    await savePreferences(t.deps.db, t.clock, customer.id, {
      reminders: true,
      consentChanges: true,
    });
    await runAt(endsAt, 3 * DAY_MS);
    expect(await remindersTo(customer.email)).toEqual([]);
    // the next threshold is theirs again
    await runAt(endsAt, DAY_MS);
    expect((await remindersTo(customer.email)).map((m) => m.subject).sort()).toEqual([
      'Your Quarterly plan ends in 1 day',
      `Your consent for ${consent.partner.name} expires in 1 day`,
    ]);
  });
});

describe('the reminders job', () => {
  it('queues each reminder’s mail in the transaction that writes its key', async () => {
    const { customer, endsAt } = await customerWithPlan(t);
    const before = (await jobsOf(t, 'mail')).length;
    expect(await runAt(endsAt, 3 * DAY_MS)).toBeGreaterThanOrEqual(1);
    expect(await runAt(endsAt, 3 * DAY_MS)).toBe(0);
    expect((await jobsOf(t, 'mail')).length - before).toBeGreaterThanOrEqual(1);
    expect(await remindersTo(customer.email)).toHaveLength(1);
  });
});

/** Sends what is due at the clock's time, so that a second run at that time counts only what a test adds. */
const sendWhatIsDueNow = () => sendDueReminders(t.deps);

/** How many times `part` occurs in `whole`. */
const count = (whole: string, part: string) => whole.split(part).length - 1;

const OFF = 'You can turn reminders off in your notification preferences.';

describe('the reminder mails', () => {
  it('say what ends and when, why to renew now, the plan, the Renew link and how to stop them', async () => {
    // 90 days from 12:00 in India on 1 March 2027: 30 May 2027
    t.clock.set(new Date('2027-03-01T06:30:00.000Z'));
    const { customer, plan, endsAt } = await customerWithPlan(t);
    await runAt(endsAt, 30 * DAY_MS);
    const [mail] = await remindersTo(customer.email);
    const what = 'Your Quarterly plan ends on 30/05/2027, in 30 days.';
    const why = 'A renewal bought now starts when the current plan ends, so no paid day is lost.';
    expect(mail!.text.trim()).toBe(
      [
        what,
        why,
        '',
        'Plan: Quarterly',
        'Ends on: 30/05/2027',
        '',
        `Renew: http://localhost:3000/orders?planId=${plan.id}`,
        '',
        OFF,
      ].join('\n'),
    );
    // the preview a mail client shows before opening it, then the same words in the body
    expect(count(mail!.html, `${what} ${why}`)).toBe(1);
    expect(count(mail!.html, what)).toBe(2);
    expect(count(mail!.html, why)).toBe(2);
    expect(mail!.html).toContain(`Dear ${customer.companyName},`);
    expect(mail!.html).toContain(OFF);
  });

  it('say which consent expires and when, what the partner loses, the Reconnect link and how to stop them', async () => {
    t.clock.set(new Date('2027-03-01T06:30:00.000Z'));
    const customer = await createCustomer(t);
    const expiresAt = new Date('2027-04-10T06:30:00.000Z');
    const consent = await consentExpiring(t, customer.id, expiresAt, {
      partnerName: 'Harbour Books Ltd',
    });
    await runAt(expiresAt, 7 * DAY_MS);
    const [mail] = await remindersTo(customer.email);
    expect(mail!.subject).toBe('Your consent for Harbour Books Ltd expires in 7 days');
    const what = 'Your banking consent for Harbour Books Ltd expires on 10/04/2027, in 7 days.';
    const why =
      'After that, Harbour Books Ltd will no longer be able to read your bank data until you reconnect it.';
    expect(mail!.text.trim()).toBe(
      [
        what,
        why,
        '',
        'Partner: Harbour Books Ltd',
        `Consent: ${consent.consentId}`,
        'Expires on: 10/04/2027',
        '',
        `Reconnect: http://localhost:3000/consents?reconnect=${consent.id}`,
        '',
        OFF,
      ].join('\n'),
    );
    expect(count(mail!.html, `${what} ${why}`)).toBe(1);
    expect(count(mail!.html, what)).toBe(2);
    expect(mail!.html).toContain(OFF);
  });
});

describe('the bell’s events of reminders', () => {
  it('records the plan a plan’s reminder is about', async () => {
    const { customer, plan, endsAt } = await customerWithPlan(t);
    await runAt(endsAt, 7 * DAY_MS);
    expect(
      await t.deps.db
        .select({ type: activityEvents.type, details: activityEvents.details })
        .from(activityEvents)
        .where(eq(activityEvents.customerId, customer.id)),
    ).toEqual([{ type: 'plan_ending', details: { planId: plan.id } }]);
  });

  it('tells of a consent’s expiry and links to the consent', async () => {
    t.clock.set(new Date('2027-03-01T06:30:00.000Z'));
    const customer = await createCustomer(t);
    const expiresAt = new Date('2027-03-03T06:30:00.000Z');
    const consent = await consentExpiring(t, customer.id, expiresAt, {
      partnerName: 'Quayside Accounts Ltd',
    });
    await sendDueReminders(t.deps);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: await authHeaders(t, customer.id),
    });
    expect(res.statusCode).toBe(200);
    const { notifications } = NotificationsResponseSchema.parse(res.json());
    expect(notifications).toEqual([
      expect.objectContaining({
        type: 'consent_expiring',
        title: 'Your consent for Quayside Accounts Ltd expires in 2 days',
        description:
          'Your consent for Quayside Accounts Ltd expires on 03/03/2027. Reconnect to keep Quayside Accounts Ltd reading your bank data.',
        target: { kind: 'consent', id: consent.consentId },
      }),
    ]);
  });
});

describe('the count of reminders a run sent', () => {
  it('leaves out a customer who turned reminders off', async () => {
    await sendWhatIsDueNow();
    // both plans end in 5 days: the 7-day reminder is due at once
    const on = await customerWithPlan(t, { durationDays: 5 });
    const off = await customerWithPlan(t, { durationDays: 5 });
    await savePreferences(t.deps.db, t.clock, off.customer.id, {
      reminders: false,
      consentChanges: true,
    });
    expect(await sendDueReminders(t.deps)).toBe(1);
    expect((await remindersTo(on.customer.email)).map((m) => m.subject)).toEqual([
      'Your Quarterly plan ends in 5 days',
    ]);
    expect(await remindersTo(off.customer.email)).toEqual([]);
  });

  it('counts each reminder once when two runs find it due together', async () => {
    await sendWhatIsDueNow();
    const customers = [
      await customerWithPlan(t, { durationDays: 5 }),
      await customerWithPlan(t, { durationDays: 5 }),
    ];
    // the two runs take turns on the database: both read the same reminders, one claims each
    const sent = await Promise.all([sendDueReminders(t.deps), sendDueReminders(t.deps)]);
    expect(sent[0]! + sent[1]!).toBe(2);
    for (const { customer } of customers) {
      expect((await remindersTo(customer.email)).map((m) => m.subject)).toEqual([
        'Your Quarterly plan ends in 5 days',
      ]);
      expect(await bellEventsOf(customer.id)).toHaveLength(1);
    }
  });

  it('sends every reminder due when there are more than one batch of them, each once', async () => {
    await sendWhatIsDueNow();
    const customer = await createCustomer(t);
    const expiresAt = new Date(t.clock.now().getTime() + 2 * DAY_MS);
    const { consents } = await consentsExpiring(t, customer.id, expiresAt, REMINDER_BATCH + 1);
    expect(await sendDueReminders(t.deps)).toBe(REMINDER_BATCH + 1);
    const events = await t.deps.db
      .select({ id: activityEvents.id })
      .from(activityEvents)
      .where(
        and(
          eq(activityEvents.customerId, customer.id),
          eq(activityEvents.type, 'consent_expiring'),
        ),
      );
    expect(events).toHaveLength(consents.length);
    const keys = await t.deps.db
      .select({ subject: remindersSent.subject })
      .from(remindersSent)
      .where(eq(remindersSent.customerId, customer.id));
    // one key per consent: its subject is consent:<id>:<expiry>
    expect(keys).toHaveLength(consents.length);
    expect(new Set(keys.map((k) => k.subject.split(':')[1]))).toEqual(
      new Set(consents.map((c) => c.id)),
    );
    expect(await sendDueReminders(t.deps)).toBe(0);
  }, 60_000);
});
