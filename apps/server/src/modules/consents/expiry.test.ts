import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { activityEvents } from '../activity/schema';
import { expireDueConsents } from './customer-consents';
import { sweepExpiredConsents } from './expiry';
import { consents } from './schema';
import { createTestPartner } from './testing';
import { DAY_MS } from '../../lib/clock';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function consentOf(customerId: string, status: string, expiresInDays: number) {
  const { partner } = await createTestPartner(t);
  const [row] = await t.deps.db
    .insert(consents)
    .values({
      customerId,
      partnerRef: partner.id,
      consentId: `TEST-${crypto.randomUUID()}`,
      status,
      providerStatus: 'Authorised',
      permissions: [],
      expiresAt: new Date(t.clock.now().getTime() + expiresInDays * DAY_MS),
      providerCreatedAt: t.clock.now(),
      providerStatusUpdatedAt: t.clock.now(),
    })
    .returning();
  return row!;
}

const countsOf = async (customerId: string) =>
  (
    (await t.deps.db.execute(
      sql`SELECT status, n FROM consent_counts WHERE customer_id = ${customerId}::uuid AND n <> 0 ORDER BY status`,
    )) as unknown as { rows: { status: string; n: number }[] }
  ).rows;

describe('sweepExpiredConsents', () => {
  it('stores the expiry of live consents past their time, once, with their activity and counts', async () => {
    const first = await createCustomer(t);
    const second = await createCustomer(t);
    const due = [
      await consentOf(first.id, 'Approved', 1),
      await consentOf(first.id, 'Pending', 1),
      await consentOf(second.id, 'Approved', 1),
    ];
    const later = await consentOf(first.id, 'Approved', 30);
    const rejected = await consentOf(second.id, 'Rejected', 1);
    expect(await sweepExpiredConsents(t.deps)).toBe(0);

    t.clock.advance(2 * DAY_MS);
    const runs = await Promise.all([sweepExpiredConsents(t.deps), sweepExpiredConsents(t.deps)]);
    expect(runs.sort()).toEqual([0, 3]);
    expect(await sweepExpiredConsents(t.deps)).toBe(0);

    const statusOf = async (id: string) =>
      (await t.deps.db.select().from(consents).where(eq(consents.id, id)))[0]!.status;
    for (const row of due) expect(await statusOf(row.id)).toBe('Expired');
    expect(await statusOf(later.id)).toBe('Approved');
    expect(await statusOf(rejected.id)).toBe('Rejected');

    const events = await t.deps.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.customerId, first.id));
    expect(events.map((e) => e.type)).toEqual(['consent_expired', 'consent_expired']);
    expect(await countsOf(first.id)).toEqual([
      { status: 'Approved', n: 1 },
      { status: 'Expired', n: 2 },
    ]);
    expect(await countsOf(second.id)).toEqual([
      { status: 'Expired', n: 1 },
      { status: 'Rejected', n: 1 },
    ]);
  });

  it('tells an expiry once when two passes both read it as due before either stores it', async () => {
    const customer = await createCustomer(t);
    const due = await consentOf(customer.id, 'Approved', 1);
    t.clock.advance(2 * DAY_MS);
    const before = (await t.outbox()).length;
    // outside a transaction the two passes take turns statement by statement: both read the
    // consent, then one update moves it and the other moves nothing, and has nothing to tell
    const passes = await Promise.all([
      expireDueConsents(t.deps.db, t.deps, customer.id),
      expireDueConsents(t.deps.db, t.deps, customer.id),
    ]);
    expect(passes.sort()).toEqual([0, 1]);
    const told = await t.deps.db
      .select({ details: activityEvents.details })
      .from(activityEvents)
      .where(
        and(eq(activityEvents.customerId, customer.id), eq(activityEvents.type, 'consent_expired')),
      );
    expect(told).toEqual([{ details: { consentId: due.consentId } }]);
    const notices = (await t.outbox())
      .slice(before)
      .filter((m) => m.to === customer.email && m.subject === 'A banking consent changed status');
    expect(notices).toHaveLength(1);
  });

  it('tells the customer by mail once of each consent it stores as expired, also when passes race', async () => {
    const customer = await createCustomer(t);
    const due = await consentOf(customer.id, 'Approved', 1);
    await consentOf(customer.id, 'Approved', 30);
    const before = (await t.outbox()).length;
    t.clock.advance(2 * DAY_MS);
    // the sweep and a read storing the same expiry at once (on PostgreSQL they interleave)
    const storeOnRead = () =>
      t.deps.db.transaction((tx) => expireDueConsents(tx, t.deps, customer.id));
    await Promise.all([storeOnRead(), storeOnRead(), sweepExpiredConsents(t.deps)]);
    await sweepExpiredConsents(t.deps);
    const notices = (await t.outbox())
      .slice(before)
      .filter((m) => m.to === customer.email && m.subject === 'A banking consent changed status');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain(`Consent: ${due.consentId}`);
    expect(notices[0]!.text).toContain('Status: Expired (was Approved)');
  });
});
