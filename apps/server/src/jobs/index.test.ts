import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_SCHEMA } from '../adapters/queue';
import { createTestApp, type TestApp } from '../test/app';
import { drainQueue, jobsOf } from '../test/queue';
import { orders } from '../modules/orders/schema';
import { buyer, dropWebhooks } from '../modules/payments/test-support';
import { startBackgroundJobs } from '.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { PAYMENT_RECONCILE_MINUTES: '5', AUTH_PURGE_MINUTES: '0', CONSENT_EXPIRY_MINUTES: '90' },
  });
});
afterAll(() => t.close());

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
        { name: 'consent-expiry', cron: '0 */1 * * *', timezone: 'UTC' },
        { name: 'payment-reconcile', cron: '*/5 * * * *', timezone: 'UTC' },
      ]);
      await drainQueue(t, 'payment-reconcile');
      await drainQueue(t, 'consent-expiry');
      const [order] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
      expect(order!.status).toBe('Completed');
      expect((await jobsOf(t, 'payment-reconcile')).map((job) => job.state)).toContain('completed');
      expect((await jobsOf(t, 'consent-expiry')).map((job) => job.state)).toContain('completed');
      expect(await jobsOf(t, 'auth-purge')).toEqual([]);
    } finally {
      await jobs.stop();
    }

    // an instance started with every job off unschedules them for all instances
    const off = { PAYMENT_RECONCILE_MINUTES: 0, AUTH_PURGE_MINUTES: 0, CONSENT_EXPIRY_MINUTES: 0 };
    const none = startBackgroundJobs({ ...t.deps, config: { ...t.config, ...off } }, t.app.log);
    await none.stop();
    expect(await schedules()).toEqual([]);
  });
});
