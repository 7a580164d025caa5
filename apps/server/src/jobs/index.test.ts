import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths, privacyPaths } from '@portal/contract';
import { QUEUE_SCHEMA } from '../adapters/queue';
import { createTestApp, type TestApp } from '../test/app';
import { authHeaders, createCustomer } from '../test/customers';
import { drainQueue, jobsOf } from '../test/queue';
import { orders } from '../modules/purchases/schema';
import { buyer, dropWebhooks } from '../test/payments';
import { startBackgroundJobs } from '.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      PAYMENT_RECONCILE_MINUTES: '5',
      AUTH_PURGE_MINUTES: '0',
      CONSENT_EXPIRY_MINUTES: '90',
      REMINDER_MINUTES: '0',
      DATA_EXPORT_PURGE_MINUTES: '30',
      MAIL_PURGE_MINUTES: '120',
      CLOSED_ACCOUNT_PURGE_MINUTES: '180',
      AUDIT_PURGE_MINUTES: '0',
      DEAD_LETTER_DIGEST_MINUTES: '10',
    },
  });
});
afterAll(() => t.close());

const allOff = () => ({
  ...t.deps,
  config: {
    ...t.config,
    PAYMENT_RECONCILE_MINUTES: 0,
    AUTH_PURGE_MINUTES: 0,
    CONSENT_EXPIRY_MINUTES: 0,
    REMINDER_MINUTES: 0,
    DATA_EXPORT_PURGE_MINUTES: 0,
    MAIL_PURGE_MINUTES: 0,
    CLOSED_ACCOUNT_PURGE_MINUTES: 0,
    AUDIT_PURGE_MINUTES: 0,
    DEAD_LETTER_DIGEST_MINUTES: 0,
  },
});

const schedules = async () =>
  (
    (await t.deps.db.execute(
      sql`SELECT name, cron, timezone FROM ${sql.raw(QUEUE_SCHEMA)}.schedule ORDER BY name`,
    )) as unknown as { rows: { name: string; cron: string; timezone: string }[] }
  ).rows;

describe('startBackgroundJobs', () => {
  it('schedules each job by its setting, runs it once at start, and leaves one set to 0 off', async () => {
    // a paid order whose webhook never came: the reconciliation run at start settles it
    const b = await buyer(t);
    const orderId = await b.order();
    const { checkoutPath } = await b.pay(orderId);
    const restore = dropWebhooks(t);
    await b.checkout(checkoutPath, 'pay').finally(restore);

    const jobs = startBackgroundJobs(t.deps, t.app.log);
    try {
      await expect.poll(schedules).toEqual([
        { name: 'closed-account-purge', cron: '0 */3 * * *', timezone: 'UTC' },
        { name: 'consent-expiry', cron: '0 */1 * * *', timezone: 'UTC' },
        { name: 'data-export-purge', cron: '*/30 * * * *', timezone: 'UTC' },
        { name: 'dead-letter-digest', cron: '*/10 * * * *', timezone: 'UTC' },
        { name: 'mail-purge', cron: '0 */2 * * *', timezone: 'UTC' },
        { name: 'payment-reconcile', cron: '*/5 * * * *', timezone: 'UTC' },
      ]);
      await drainQueue(t, 'payment-reconcile');
      await drainQueue(t, 'consent-expiry');
      await drainQueue(t, 'data-export-purge');
      await drainQueue(t, 'mail-purge');
      await drainQueue(t, 'closed-account-purge');
      await drainQueue(t, 'dead-letter-digest');
      const [order] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
      expect(order!.status).toBe('Completed');
      expect((await jobsOf(t, 'payment-reconcile')).map((job) => job.state)).toContain('completed');
      expect((await jobsOf(t, 'consent-expiry')).map((job) => job.state)).toContain('completed');
      expect((await jobsOf(t, 'data-export-purge')).map((job) => job.state)).toContain('completed');
      expect((await jobsOf(t, 'mail-purge')).map((job) => job.state)).toContain('completed');
      expect((await jobsOf(t, 'closed-account-purge')).map((job) => job.state)).toContain(
        'completed',
      );
      expect((await jobsOf(t, 'dead-letter-digest')).map((job) => job.state)).toContain(
        'completed',
      );
      expect(await jobsOf(t, 'auth-purge')).toEqual([]);
    } finally {
      await jobs.stop();
    }

    // an instance started with every job off unschedules them for all instances
    const none = startBackgroundJobs(allOff(), t.app.log);
    await none.stop();
    expect(await schedules()).toEqual([]);
  });

  it('delivers queued mail on every instance, whatever the schedules', async () => {
    const customer = await createCustomer(t);
    const earlier = new Set((await jobsOf(t, 'mail')).map((job) => job.id));
    const forgot = await t.app.inject({
      method: 'POST',
      url: authPaths.forgotPassword,
      payload: { email: customer.email },
    });
    expect(forgot.statusCode).toBe(200);
    // the reset link's mail, waiting: no worker runs before the jobs start
    const linkMail = async () => (await jobsOf(t, 'mail')).filter((job) => !earlier.has(job.id));
    await expect.poll(async () => (await linkMail()).map((job) => job.state)).toEqual(['created']);
    const jobs = startBackgroundJobs(allOff(), t.app.log);
    try {
      await drainQueue(t, 'mail');
      expect((await linkMail()).map((job) => job.state)).toEqual(['completed']);
    } finally {
      await jobs.stop();
    }
  });

  it('prepares asked-for data on every instance, whatever the schedules', async () => {
    const customer = await createCustomer(t);
    const headers = await authHeaders(t, customer.id);
    const asked = await t.app.inject({ method: 'POST', url: privacyPaths.dataExport, headers });
    expect(asked.statusCode).toBe(202);
    const jobs = startBackgroundJobs(allOff(), t.app.log);
    try {
      await drainQueue(t, 'data-export');
      const latest = await t.app.inject({ method: 'GET', url: privacyPaths.dataExport, headers });
      expect(latest.json().data.status).toBe('ready');
    } finally {
      await jobs.stop();
    }
  });
});
