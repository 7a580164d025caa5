import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_HISTORY_PAGE_SIZE, orderAmount } from '@portal/contract';
import { createTestApp, type TestApp } from '../../test/app';
import { insertCustomers, sessionAuth } from '../../test/customers';
import { CUSTOM_PLANS_FIRST, onOneConnection } from '../../test/database';
import { buyer } from '../../test/payments';
import type { RequestAuth } from '../auth/authenticate';
import { decodeCursor, type HistoryPosition } from '../../lib/history-cursor';
import { listOrders, historyPageStatement } from './orders';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Actual Rows': number;
  Plans?: PlanNode[];
}

const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * What PostgreSQL does for a page, from EXPLAIN ANALYZE of the very statement the route runs.
 * Not a timing: the number of order rows read, which must not grow with the history.
 */
async function planOf(auth: RequestAuth, rows: number, position?: HistoryPosition) {
  const { statement, more } = historyPageStatement(rows, position);
  const values = [auth.sessionId, auth.customerId, ...more];
  const client = (t.deps.db as unknown as { $client: pg.Pool }).$client;
  const result = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, values);
  return (result.rows[0]!['QUERY PLAN'] as [{ Plan: PlanNode }])[0].Plan;
}

/** `each` orders of the plan for every customer of `company`, made straight in the table. */
async function insertOrdersOfCompany(company: string, planId: string, each: number) {
  await t.deps.db.execute(sql`
    INSERT INTO orders (customer_id, plan_id, base_paise, gst_paise, handling_paise, total_paise,
      status, created_at, updated_at)
    SELECT c.id, ${planId}, 100, 18, 0, 118, 'Pending', now() - j * interval '1 minute', now()
    FROM customers c CROSS JOIN generate_series(1, ${each}) AS j
    WHERE c.company_name = ${company}`);
}

/** The buyer's orders, made straight in the table: `count`, a minute apart, newest first. */
async function insertOrders(b: Awaited<ReturnType<typeof buyer>>, count: number) {
  const amounts = orderAmount(b.plan.amountPaise);
  await t.deps.db.execute(sql`
    INSERT INTO orders (customer_id, plan_id, base_paise, gst_paise, handling_paise,
      total_paise, status, created_at, updated_at)
    SELECT ${b.customer.id}, ${b.plan.id}, ${amounts.basePaise}, ${amounts.gstPaise},
      ${amounts.handlingPaise}, ${amounts.totalPaise}, 'Pending',
      now() - i * interval '1 minute', now() - i * interval '1 minute'
    FROM generate_series(1, ${count}) AS i`);
}

/**
 * The plan's one read of orders: off the customer index, newest first, and a page of rows (and
 * one to look ahead), whatever the customer's number of orders.
 */
function expectPageReadOffTheIndex(plan: PlanNode, rows: number) {
  const all = nodes(plan);
  const scans = all.filter((n) => n['Relation Name'] === 'orders');
  expect(scans).toHaveLength(1);
  expect(scans[0]).toMatchObject({
    'Node Type': 'Index Scan',
    'Index Name': 'orders_customer_created_idx',
    'Scan Direction': 'Backward',
  });
  expect(scans[0]!['Actual Rows']).toBeLessThanOrEqual(rows + 1);
  // plans, receipts and periods are joined to the page only
  const limitNode = all.find((n) => n['Node Type'] === 'Limit')!;
  expect(
    nodes(limitNode)
      .map((n) => n['Relation Name'])
      .filter(Boolean),
  ).toEqual(['orders']);
}

/**
 * The web app's first and next page, read 12 times on one connection: PostgreSQL plans each
 * statement for its values five times, then keeps one plan for the rest, and that plan reads a
 * page of orders off the index however many the customer has.
 */
async function expectOnePlanKept(auth: RequestAuth) {
  const connection = onOneConnection(t.deps.db);
  const calls = 12;
  try {
    const deps = { ...t.deps, db: connection.db };
    for (let call = 0; call < calls; call++) {
      const first = await listOrders(deps, auth, { limit: ORDER_HISTORY_PAGE_SIZE });
      expect(first.orders).toHaveLength(ORDER_HISTORY_PAGE_SIZE);
      const next = await listOrders(deps, auth, {
        limit: ORDER_HISTORY_PAGE_SIZE,
        cursor: first.nextCursor!,
      });
      expect(next.orders).toHaveLength(ORDER_HISTORY_PAGE_SIZE);
    }
    const plans = await connection.plans();
    for (const name of ['orders_history_first_11', 'orders_history_after_11']) {
      expect(plans.get(name), name).toEqual({
        generic: calls - CUSTOM_PLANS_FIRST,
        custom: CUSTOM_PLANS_FIRST,
      });
    }
    const first = await listOrders(deps, auth, { limit: ORDER_HISTORY_PAGE_SIZE });
    const rows = ORDER_HISTORY_PAGE_SIZE + 1;
    for (const position of [undefined, decodeCursor(first.nextCursor!)]) {
      const { statement, more } = historyPageStatement(rows, position);
      const values = [auth.sessionId, auth.customerId, ...more];
      const kept = await connection.keptPlan(statement.name, values.map(String));
      expectPageReadOffTheIndex(kept as PlanNode, rows);
    }
  } finally {
    await connection.close();
  }
}

describe('GET /api/orders/history on PostgreSQL', () => {
  it('reads only a page of orders from the customer index, however many the customer has', async () => {
    const b = await buyer(t);
    await insertOrders(b, 5000);
    await insertOrders(await buyer(t), 500);
    await t.deps.db.execute(sql`ANALYZE orders`);
    const auth = await sessionAuth(t, b.customer.id);
    let cursor = (await listOrders(t.deps, auth, { limit: 100 })).nextCursor!;
    for (let i = 0; i < 24; i++) {
      cursor = (await listOrders(t.deps, auth, { limit: 100, cursor })).nextCursor!;
    }
    const [createdAt, id] = Buffer.from(cursor, 'base64url').toString().split('|');

    // the web app's size, written into its texts, and any other, a parameter
    for (const limit of [ORDER_HISTORY_PAGE_SIZE, 7]) {
      const firstPage = await planOf(auth, limit + 1);
      const afterCursor = await planOf(auth, limit + 1, { createdAt: createdAt!, id: id! });
      // a page of rows (and one to look ahead), not the 2,500 older or the 5,000 in all
      for (const plan of [firstPage, afterCursor]) expectPageReadOffTheIndex(plan, limit + 1);
    }
  });

  it('keeps one plan per connection for the page size the web app asks for', async () => {
    const b = await buyer(t);
    await insertOrders(b, 3000);
    await t.deps.db.execute(sql`ANALYZE orders`);
    await expectOnePlanKept(await sessionAuth(t, b.customer.id));
  });

  it('keeps one plan too for a customer with far more orders than most', async () => {
    const b = await buyer(t);
    await insertOrders(b, 3000);
    // most customers have a few orders: a plan for any customer is costed for a few rows
    await insertOrdersOfCompany(await insertCustomers(t, 1000), b.plan.id, 2);
    await t.deps.db.execute(sql`ANALYZE`);
    await expectOnePlanKept(await sessionAuth(t, b.customer.id));
  });
});
