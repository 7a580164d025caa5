/**
 * Renewal day's data (decision 084), set-based on the migrated database, and what the day left
 * of it, counted. Each customer (seed.ts's others) paid for last year's Single Company plan,
 * whose period ends tomorrow, and turned auto-renewal on: a subscription at the sandbox
 * gateway, active with its first cycle paid and its second due where the plan ends, by UPI
 * Autopay. The sandbox charges a subscription in any of its chargeable states when asked
 * (subscriptions.ts), whatever its `charge_at`, so the day's charges can come before the ends.
 */
import { orderAmount } from '@portal/contract';
import type { Database } from '../apps/server/src/db/client';
import { DAY_MS } from '../apps/server/src/lib/clock';
import { cycleStart } from '../apps/server/src/sandbox/gateway/subscriptions';
import { seed } from './seed';

/** The gateway's plan: the Single Company plan, a cycle a year (gatewayCycleOf of 365 days). */
const GATEWAY_PLAN = { id: 'plan_BenchRenewalDay0001', period: 'yearly', interval: 1 } as const;
/** Cycles of a 365-day plan's subscription, as the portal asks for them (service.ts). */
const TOTAL_COUNT = 10;

export interface RenewalDay {
  subscriptions: number;
  /** Where every current period ends, and the renewed one starts. */
  planEnd: Date;
  /** Where the renewed period ends: the second cycle's end. */
  renewedEnd: Date;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const at = (date: Date) => `'${date.toISOString()}'::timestamptz`;

/**
 * Seeds `subscriptions` customers with their renewals. `authoriseUrl` is the gateway's page for
 * a subscription, as the gateway names it (the fetch after each event writes it again).
 */
export async function seedRenewalDay(
  db: Database,
  subscriptions: number,
  authoriseUrl: (idSql: string) => string,
): Promise<RenewalDay> {
  await seed(db, { measured: {}, others: { customers: subscriptions, consents: 0, orders: 0 } });
  const [plan] = rowsOf<{ id: string; base: string }>(
    await db.execute('SELECT id, amount_paise AS base FROM plans ORDER BY amount_paise LIMIT 1'),
  );
  const amounts = orderAmount(Number(plan!.base));
  // a year before tomorrow, in whole seconds as the gateway counts; the plan ends where the
  // gateway's first cycle does
  const firstStart = new Date(Math.floor((Date.now() + DAY_MS) / 1000) * 1000);
  firstStart.setUTCFullYear(firstStart.getUTCFullYear() - 1);
  const planEnd = cycleStart(GATEWAY_PLAN, firstStart, 1);
  const statements = [
    `INSERT INTO sandbox_plans (id, item_id, period, interval, name, amount, currency, notes,
       created_at)
     VALUES ('${GATEWAY_PLAN.id}', 'item_BenchRenewalDay0001', '${GATEWAY_PLAN.period}',
       ${GATEWAY_PLAN.interval}, (SELECT plan_name FROM plans WHERE id = '${plan!.id}'),
       ${amounts.totalPaise}, 'INR',
       jsonb_build_object('plan_id', '${plan!.id}'), ${at(firstStart)} - interval '2 days')`,
    `INSERT INTO gateway_plans (plan_id, amount_paise, gateway_plan_id, created_at)
     VALUES ('${plan!.id}', ${amounts.totalPaise}, '${GATEWAY_PLAN.id}',
       ${at(firstStart)} - interval '2 days')`,
    // last year's purchase, and the period it paid for
    `INSERT INTO orders (customer_id, plan_id, base_paise, gst_paise, handling_paise, total_paise,
       status, gateway_payment_id, paid_at, created_at, updated_at)
     SELECT c.id, '${plan!.id}', ${amounts.basePaise}, ${amounts.gstPaise},
       ${amounts.handlingPaise}, ${amounts.totalPaise}, 'Completed',
       'pay_BenchLastYear' || substr(md5(c.id::text), 1, 8), ${at(firstStart)},
       ${at(firstStart)}, ${at(firstStart)}
     FROM customers c`,
    `INSERT INTO customer_plans (customer_id, plan_id, order_id, starts_at, ends_at, created_at)
     SELECT customer_id, plan_id, id, paid_at, ${at(planEnd)}, paid_at FROM orders`,
    `INSERT INTO sandbox_subscriptions (id, plan_id, status, total_count, quantity,
       gateway_notifies, start_at, expire_by, notes, payment_method, gateway_customer_id,
       paid_count, auth_attempts, created_at)
     SELECT 'sub_BenchRenewal' || lpad(c.n::text, 8, '0'), '${GATEWAY_PLAN.id}', 'active',
       ${TOTAL_COUNT}, 1, false, ${at(firstStart)}, ${at(firstStart)} - interval '1 day',
       jsonb_build_object('customer_id', c.id, 'plan_id', '${plan!.id}'), 'upi',
       'cust_BenchRenewal' || lpad(c.n::text, 8, '0'), 1, 0, ${at(firstStart)} - interval '2 days'
     FROM (SELECT id, row_number() OVER (ORDER BY email) AS n FROM customers) c`,
    `INSERT INTO auto_renewals (customer_id, plan_id, subscription_id, gateway_status, method,
       amount_paise, charge_at, authorise_url, synced_at, created_at, updated_at)
     SELECT (s.notes->>'customer_id')::uuid, '${plan!.id}', s.id, s.status, s.payment_method,
       ${amounts.totalPaise}, ${at(planEnd)}, ${authoriseUrl('s.id')}, ${at(firstStart)},
       s.created_at, ${at(firstStart)}
     FROM sandbox_subscriptions s`,
    'ANALYZE',
  ];
  for (const statement of statements) await db.execute(statement);
  return {
    subscriptions,
    planEnd,
    renewedEnd: cycleStart(GATEWAY_PLAN, firstStart, 2),
  };
}

/** Where the gateway's process (renewal-gateway.ts) tells how its webhooks went. */
export const WEBHOOK_COUNTS_PATH = '/bench/webhooks';

export interface WebhookCounts {
  /** Answered 2xx within the sandbox's 5 s. */
  answered: number;
  /** Answered otherwise. */
  refused: number;
  /** Given up after 5 s, or not reached; the sandbox sends none again. */
  unanswered: number;
}

/** The subscriptions to charge, in the order of their customers. */
export async function subscriptionIds(db: Database): Promise<string[]> {
  const rows = rowsOf<{ id: string }>(
    await db.execute('SELECT id FROM sandbox_subscriptions ORDER BY id'),
  );
  return rows.map((row) => row.id);
}

/** The charges the portals have recorded, and when the last was. */
export async function chargesRecorded(db: Database) {
  const [row] = rowsOf<{ n: number; last: Date | null }>(
    await db.execute('SELECT count(*)::int AS n, max(charged_at) AS last FROM renewal_charges'),
  );
  return { n: row!.n, last: row!.last && new Date(row!.last) };
}

/** What each charge must have made exactly once, counted; `expected` beside each. */
export async function countRenewalDay(db: Database, day: RenewalDay) {
  const n = day.subscriptions;
  const [counted] = rowsOf<Record<string, number>>(
    await db.execute(`SELECT
      (SELECT count(*) FROM sandbox_subscriptions WHERE paid_count = 2)::int AS "charged at the gateway",
      (SELECT count(*) FROM renewal_charges)::int AS "charges recorded",
      (SELECT count(*) FROM orders WHERE status = 'Completed')::int - ${n} AS "orders Completed",
      (SELECT count(*) FROM orders)::int - ${n} AS "orders made",
      (SELECT count(*) FROM customer_plans cp JOIN renewal_charges rc ON rc.order_id = cp.order_id
        WHERE cp.starts_at = ${at(day.planEnd)} AND cp.ends_at = ${at(day.renewedEnd)}
      )::int AS "periods from the plan's end to the cycle's",
      (SELECT count(*) FROM customer_plans)::int - ${n} AS "periods added",
      (SELECT count(*) FROM invoices i JOIN renewal_charges rc ON rc.order_id = i.order_id
        WHERE i.irn IS NOT NULL AND i.drawn_at IS NOT NULL)::int AS "invoices drawn with an IRN",
      (SELECT count(*) FROM invoices)::int AS "invoices issued",
      (SELECT count(*) FROM mail_deliveries)::int AS "mails sent",
      (SELECT count(*) FROM auto_renewals
        WHERE gateway_status = 'active' AND charge_at = ${at(day.renewedEnd)}
      )::int AS "renewals read back from the gateway"`),
  );
  return Object.entries(counted!).map(([what, got]) => ({ what, got, expected: n }));
}

/** The portals' mail and document-draw jobs since `since`: waiting, longest wait, last done. */
export async function queueState(db: Database, since: Date) {
  const [state] = rowsOf<{
    waiting: number;
    dead: number;
    longestWait: number | null;
    lastDone: Date | null;
    lastDrawn: Date | null;
  }>(
    await db.execute(`SELECT
      count(*) FILTER (WHERE name IN ('mail', 'document-draw')
        AND state IN ('created', 'retry', 'active'))::int AS waiting,
      count(*) FILTER (WHERE name LIKE '%-dead-letter')::int AS dead,
      extract(epoch FROM max(coalesce(started_on, now()) - created_on)
        FILTER (WHERE name IN ('mail', 'document-draw')))::float8 AS "longestWait",
      max(completed_on) FILTER (WHERE name IN ('mail', 'document-draw')) AS "lastDone",
      (SELECT max(drawn_at) FROM invoices) AS "lastDrawn"
    FROM pgboss.job
    WHERE name IN ('mail', 'document-draw', 'mail-dead-letter', 'document-draw-dead-letter')
      AND created_on >= ${at(since)}`),
  );
  return {
    ...state!,
    lastDone: state!.lastDone && new Date(state!.lastDone),
    lastDrawn: state!.lastDrawn && new Date(state!.lastDrawn),
  };
}
