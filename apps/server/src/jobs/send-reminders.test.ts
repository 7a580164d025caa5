import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_SCHEMA } from '../adapters/queue';
import { createTestApp, type TestApp } from '../test/app';
import { drainQueue, jobsOf } from '../test/queue';
import { customerWithPlan } from '../test/reminders';
import { startBackgroundJobs } from '.';
import { DAY_MS } from '../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      PAYMENT_RECONCILE_MINUTES: '0',
      AUTH_PURGE_MINUTES: '0',
      CONSENT_EXPIRY_MINUTES: '0',
      REMINDER_MINUTES: '60',
      DATA_EXPORT_PURGE_MINUTES: '0',
      MAIL_PURGE_MINUTES: '0',
      CLOSED_ACCOUNT_PURGE_MINUTES: '0',
      AUDIT_PURGE_MINUTES: '0',
      DEAD_LETTER_DIGEST_MINUTES: '0',
    },
  });
});
afterAll(() => t.close());

const schedules = async () =>
  (
    (await t.deps.db.execute(
      sql`SELECT name, cron FROM ${sql.raw(QUEUE_SCHEMA)}.schedule ORDER BY name`,
    )) as unknown as { rows: { name: string; cron: string }[] }
  ).rows;

describe('the reminders job', () => {
  it('is scheduled by REMINDER_MINUTES and sends the reminders due in its run at start', async () => {
    const { customer, endsAt } = await customerWithPlan(t);
    t.clock.set(new Date(endsAt.getTime() - 6 * DAY_MS));
    const jobs = startBackgroundJobs(t.deps, t.app.log);
    try {
      await expect.poll(schedules).toEqual([{ name: 'reminders', cron: '0 */1 * * *' }]);
      // the run at start is queued after the schedule is written, with the other jobs' starts
      await expect
        .poll(async () => {
          await drainQueue(t, 'reminders');
          return (await jobsOf(t, 'reminders')).map((job) => job.state);
        })
        .toContain('completed');
      const mails = (await t.outbox()).filter((mail) => mail.to === customer.email);
      expect(mails.map((mail) => mail.subject)).toEqual(['Your Quarterly plan ends in 6 days']);
    } finally {
      await jobs.stop();
    }
  });
});
