import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer, sessionAuth } from '../../test/customers';
import { COMING_UP, EXPIRING_COUNT_CAP, EXPIRING_SHOWN } from './coming-up';
import { consentExpiring, customerWithPlan } from '../../test/reminders';
import { DAY_MS } from '../../lib/clock';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/coming-up on PostgreSQL', () => {
  it('reads only the customer’s consents in the window, from the due-consents index, at most the cap', async () => {
    const { customer } = await customerWithPlan(t);
    const now = t.clock.now();
    const { partner } = await consentExpiring(t, customer.id, new Date(now.getTime() + DAY_MS));
    const others = await Promise.all([1, 2, 3].map(() => createCustomer(t)));
    // 20,000 live consents expiring after the window, 2,000 within it, and as many of others'
    for (const [who, days, n] of [
      [customer.id, 200, 20_000],
      [customer.id, 10, 2_000],
      ...others.map((other) => [other.id, 10, 2_000] as const),
    ] as const) {
      await t.deps.db.execute(sql`
        INSERT INTO consents (customer_id, partner_ref, consent_id, status, provider_status,
          permissions, expires_at, provider_created_at, provider_status_updated_at)
        SELECT ${who}::uuid, ${partner.id}::uuid, 'PLAN-' || gen_random_uuid(),
          'Approved', 'Authorised', '["ReadAccountsBasic"]'::jsonb,
          ${now.toISOString()}::timestamptz + make_interval(days => ${days}) + i * interval '1 second',
          now(), now()
        FROM generate_series(1, ${n}) AS i`);
    }
    await t.deps.db.execute(sql`ANALYZE consents`);

    // a session that stands: without one the statement reads no consents at all
    const { sessionId } = await sessionAuth(t, customer.id);
    const client = (t.deps.db as unknown as { $client: pg.Pool }).$client;
    const result = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${COMING_UP.text}`, [
      sessionId,
      customer.id,
      now,
      new Date(now.getTime() + 30 * DAY_MS),
      EXPIRING_COUNT_CAP,
      EXPIRING_SHOWN,
    ]);
    const plan = (result.rows[0]!['QUERY PLAN'] as [{ Plan: PlanNode }])[0].Plan;
    const scans = nodes(plan).filter((n) => n['Relation Name'] === 'consents');
    expect(scans).toHaveLength(2);
    for (const scan of scans) {
      expect(scan['Index Name']).toBe('consents_customer_due_idx');
      // read once, beside the session
      expect(scan['Actual Loops']).toBe(1);
      // the capped count and the few soonest, never the 2,000 in the window or the 22,000 in all
      expect(scan['Actual Rows'] * scan['Actual Loops']).toBeLessThanOrEqual(EXPIRING_COUNT_CAP);
      expect(scan['Rows Removed by Filter'] ?? 0).toBe(0);
    }
  });
});
