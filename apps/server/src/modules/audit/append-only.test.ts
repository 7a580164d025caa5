import { randomUUID } from 'node:crypto';
import { and, count, eq, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_SCHEMA } from '../../adapters/queue';
import { loadConfig } from '../../config';
import type { AppDeps } from '../../deps';
import { startBackgroundJobs } from '../../jobs';
import { DAY_MS } from '../../lib/clock';
import { createTestApp, type TestApp } from '../../test/app';
import { drainQueue, jobsOf } from '../../test/queue';
import { recordAudit } from './record';
import { purgeExpiredAudit } from './retention';
import { auditEvents } from './schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** An event of its own account, `daysAgo` days before the database's clock. */
async function eventDaysAgo(daysAgo: number) {
  const customerId = randomUUID();
  t.clock.set(new Date(Date.now() - daysAgo * DAY_MS));
  await recordAudit(t.deps.db, t.clock, { actor: 'customer', customerId, action: 'sign_in' });
  t.clock.set(new Date());
  return customerId;
}

const rowsOf = (customerId: string) =>
  t.deps.db.select().from(auditEvents).where(eq(auditEvents.customerId, customerId));

/** What the database answered a statement: the messages down the error's causes. */
async function refusal(statement: Promise<unknown>): Promise<string> {
  const error = await statement.then(
    () => null,
    (e: unknown) => e,
  );
  const messages: string[] = [];
  for (let e = error; e instanceof Error; e = e.cause) messages.push(e.message);
  return messages.join(' | ');
}

describe('audit_events in the database', () => {
  it('refuses every change of a row: UPDATE, and TRUNCATE of the table', async () => {
    const customerId = await eventDaysAgo(3);
    const before = await rowsOf(customerId);

    expect(
      await refusal(
        t.deps.db
          .update(auditEvents)
          .set({ outcome: 'failure' })
          .where(eq(auditEvents.customerId, customerId)),
      ),
    ).toMatch(/audit_events is append-only: UPDATE refused/);
    expect(
      await refusal(
        t.deps.db.execute(
          sql`UPDATE audit_events SET details = '{}' WHERE customer_id = ${customerId}`,
        ),
      ),
    ).toMatch(/append-only: UPDATE refused/);
    expect(await refusal(t.deps.db.execute(sql`TRUNCATE audit_events`))).toMatch(
      /append-only: TRUNCATE refused/,
    );
    expect(await rowsOf(customerId)).toEqual(before);
  });

  it('refuses to delete a row younger than 365 days, and deletes an older one', async () => {
    const young = await eventDaysAgo(364);
    const old = await eventDaysAgo(366);

    expect(
      await refusal(t.deps.db.delete(auditEvents).where(eq(auditEvents.customerId, young))),
    ).toMatch(/audit_events keeps every row 365 days: event \d+ is younger/);
    // one young row in the statement refuses the whole of it
    expect(
      await refusal(
        t.deps.db.execute(
          sql`DELETE FROM audit_events WHERE customer_id IN (${young}::uuid, ${old}::uuid)`,
        ),
      ),
    ).toMatch(/is younger/);
    expect(await rowsOf(young)).toHaveLength(1);
    expect(await rowsOf(old)).toHaveLength(1);

    await t.deps.db.delete(auditEvents).where(eq(auditEvents.customerId, old));
    expect(await rowsOf(old)).toEqual([]);
    expect(await rowsOf(young)).toHaveLength(1);
  });
});

describe('the audit-purge job', () => {
  const olderThan = async (days: number) => {
    const [row] = await t.deps.db
      .select({ n: count() })
      .from(auditEvents)
      .where(lt(auditEvents.occurredAt, new Date(Date.now() - days * DAY_MS)));
    return row!.n;
  };
  const purges = () =>
    t.deps.db.select().from(auditEvents).where(eq(auditEvents.action, 'audit_purged'));

  it('deletes the rows past AUDIT_RETENTION_DAYS (400 by default), only those, and records how many', async () => {
    expect(t.config.AUDIT_RETENTION_DAYS).toBe(400);
    const gone = [await eventDaysAgo(401), await eventDaysAgo(500)];
    const kept = [await eventDaysAgo(399), await eventDaysAgo(366), await eventDaysAgo(1)];
    const due = await olderThan(400);
    expect(due).toBeGreaterThanOrEqual(2);
    const purgesBefore = (await purges()).length;

    expect(await purgeExpiredAudit(t.deps)).toBe(due);
    for (const id of gone) expect(await rowsOf(id)).toEqual([]);
    for (const id of kept) expect(await rowsOf(id)).toHaveLength(1);
    const recorded = await purges();
    expect(recorded).toHaveLength(purgesBefore + 1);
    expect(recorded.at(-1)).toMatchObject({
      actorKind: 'system',
      actorId: null,
      customerId: null,
      outcome: 'success',
      details: { rows: due },
    });

    // nothing left to delete: no run recorded
    expect(await purgeExpiredAudit(t.deps)).toBe(0);
    expect(await purges()).toHaveLength(purgesBefore + 1);
  });

  it('at the floor of 365 days, with the app clock ahead of the database, deletes only what the database allows', async () => {
    const almost = await eventDaysAgo(364);
    const past = await eventDaysAgo(370);
    const ahead = { now: () => new Date(Date.now() + 2 * DAY_MS) };
    const deps = { ...t.deps, clock: ahead, config: { ...t.config, AUDIT_RETENTION_DAYS: 365 } };

    expect(await purgeExpiredAudit(deps)).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(past)).toEqual([]);
    expect(await rowsOf(almost)).toHaveLength(1);
  });

  it('refuses a retention under 365 days in the configuration', () => {
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '730' }).AUDIT_RETENTION_DAYS).toBe(730);
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '364' })).toThrow(
      'Invalid configuration: AUDIT_RETENTION_DAYS must be at least 365 days',
    );
  });

  it('runs on its schedule, AUDIT_PURGE_MINUTES, and once at start', async () => {
    const old = await eventDaysAgo(450);
    const everyJobOff = Object.fromEntries(
      Object.keys(t.config)
        .filter((key) => key.endsWith('_MINUTES'))
        .map((key) => [key, 0]),
    );
    const deps: AppDeps = {
      ...t.deps,
      config: { ...t.config, ...everyJobOff, AUDIT_PURGE_MINUTES: 1440 },
    };
    const jobs = startBackgroundJobs(deps, t.app.log);
    try {
      const schedules = async () =>
        (
          (await t.deps.db.execute(
            sql`SELECT name, cron FROM ${sql.raw(QUEUE_SCHEMA)}.schedule ORDER BY name`,
          )) as unknown as { rows: { name: string; cron: string }[] }
        ).rows;
      await expect.poll(schedules).toEqual([{ name: 'audit-purge', cron: '0 0 * * *' }]);
      await drainQueue(t, 'audit-purge');
      expect((await jobsOf(t, 'audit-purge')).map((job) => job.state)).toContain('completed');
      expect(await rowsOf(old)).toEqual([]);
      expect(
        await t.deps.db
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.action, 'audit_purged'), eq(auditEvents.actorKind, 'system'))),
      ).not.toEqual([]);
    } finally {
      await jobs.stop();
    }
  });
});
