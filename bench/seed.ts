/**
 * Seeds a migrated, empty portal database with set-based SQL (INSERT … SELECT generate_series),
 * which takes seconds for a million rows where the API would take hours. The rows are what the
 * portal itself would have stored: real partners and plans, consents in all four states with
 * the bank's matching status, future expiry times on Pending and Approved ones (so that reading
 * them expires nothing), orders with the amounts the money rules give, GST invoices for paid
 * orders, and a current plan for every customer. Provider tokens are left empty: the screen
 * shows them as absent.
 *
 * A table or column that the portal keeps in step with these (a counter, say) needs its rows
 * here too, or the seeded customers would look empty to it. The consent and order counters are
 * kept by the portal's own statement-level triggers, which add one aggregate per customer and
 * status for each INSERT … SELECT here; the seed ends by checking them against a count.
 */
import { randomUUID } from 'node:crypto';
import { orderAmount } from '@portal/contract';
import type { Database } from '../apps/server/src/db/client';
import { hashPassword } from '../apps/server/src/lib/password';
import type { Account } from './portal';

export interface Volume {
  consents: number;
  orders: number;
}

export interface SeedPlan {
  /** Customers the bench signs in as, by name (e.g. '10k', '1m'). */
  measured: Record<string, Volume>;
  /** Everyone else, so that no customer has the tables to itself. */
  others: Volume & { customers: number };
}

const PASSWORD = 'Bench@12345';

export function accountOf(name: string): Account {
  return {
    email: `bench-${name}@bench.example`,
    mobile: '9876543210',
    gstNo: '27AAPFU0939F1ZV',
    tallySerialNo: '712345678',
    password: PASSWORD,
  };
}

const PARTNERS = [
  ['PTN-BENCH-TLINK', 'TallyLink Bank Connector'],
  ['PTN-BENCH-LSYNC', 'LedgerSync Plugin'],
  ['PTN-BENCH-GSTRC', 'GST Reconciler'],
  ['PTN-BENCH-CASHF', 'CashFlow Insights'],
] as const;

const PLANS = [
  {
    id: randomUUID(),
    name: 'Single Company - 1 Year',
    type: 'Single',
    companies: 1,
    base: 500_000,
  },
  {
    id: randomUUID(),
    name: 'Multi Company - 1 Year',
    type: 'Multi',
    companies: 5,
    base: 1_500_000,
  },
];

/** Every page holds a mix: the states follow each other row by row. */
const CONSENT_STATES = [
  'Approved',
  'Pending',
  'Approved',
  'Rejected',
  'Approved',
  'Expired',
  'Approved',
  'Pending',
  'Rejected',
  'Expired',
];
const ORDER_STATES = [
  ...Array<string>(12).fill('Completed'),
  ...Array<string>(4).fill('Pending'),
  ...Array<string>(3).fill('Failed'),
  'Refunded',
];
const PERMISSION_SETS = [
  ['ReadAccountsBasic', 'ReadBalances'],
  ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail'],
  ['ReadTransactionsBasic'],
];

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
const textArray = (values: readonly string[]) => `ARRAY[${values.map(literal).join(',')}]`;

function customersSql(passwordHash: string, plan: SeedPlan) {
  const { mobile, gstNo, tallySerialNo } = accountOf('any');
  const columns =
    'email, company_name, mobile, gst_no, tally_serial_no, password_hash, category, tally_version';
  const shared = [mobile, gstNo, tallySerialNo, passwordHash, 'Retail', 'TallyPrime 5.1']
    .map(literal)
    .join(', ');
  const measured = Object.keys(plan.measured).map((name) => {
    const values = [accountOf(name).email, `Bench ${name} Traders Pvt Ltd`].map(literal).join(', ');
    return `INSERT INTO customers (${columns}) VALUES (${values}, ${shared})`;
  });
  const others = `INSERT INTO customers (${columns})
    SELECT 'bench-other-' || i || '@bench.example', 'Other ' || i || ' Traders Pvt Ltd', ${shared}
      FROM generate_series(1, ${plan.others.customers}) AS i`;
  return [...measured, others];
}

/** `perCustomer` consents for each customer `where` picks. */
function consentsSql(where: string, perCustomer: number) {
  return `
    INSERT INTO consents (customer_id, partner_ref, consent_id, status, provider_status, permissions,
      net_banking_user_id, expires_at, provider_created_at, provider_status_updated_at,
      created_at, updated_at)
    SELECT c.id, p.ids[1 + i % ${PARTNERS.length}], 'BENCH-' || c.id || '-' || i, s.status,
      CASE s.status WHEN 'Pending' THEN 'AwaitingAuthorisation' WHEN 'Approved' THEN 'Authorised'
        WHEN 'Rejected' THEN 'Rejected' ELSE 'Revoked' END,
      (${textArray(PERMISSION_SETS.map((set) => JSON.stringify(set)))})[1 + i % ${PERMISSION_SETS.length}]::jsonb,
      CASE s.status WHEN 'Approved' THEN 'nb-user-' || (i % 97) END,
      CASE WHEN s.status IN ('Pending', 'Approved') THEN now() + interval '365 days'
        WHEN s.status = 'Expired' THEN t.at + interval '1 hour' END,
      t.at, t.at, t.at, t.at
    FROM customers c
    CROSS JOIN generate_series(1, ${perCustomer}) AS i
    CROSS JOIN (SELECT array_agg(id ORDER BY partner_id) AS ids FROM partners) AS p
    CROSS JOIN LATERAL (SELECT (${textArray(CONSENT_STATES)})[1 + i % ${CONSENT_STATES.length}] AS status) AS s
    CROSS JOIN LATERAL (SELECT now() - interval '2 hours' - i * interval '1 minute' AS at) AS t
    WHERE ${where}`;
}

function ordersSql(where: string, perCustomer: number) {
  const amounts = PLANS.map((plan) => orderAmount(plan.base));
  // the plan, and its amounts, alternate row by row
  const byPlan = (values: (string | number)[], cast: string) =>
    `(ARRAY[${values.map((v) => (typeof v === 'string' ? literal(v) : v)).join(',')}]::${cast}[])[1 + i % ${PLANS.length}]`;
  const paise = (field: keyof (typeof amounts)[number]) =>
    byPlan(
      amounts.map((a) => a[field]),
      'bigint',
    );
  return `
    INSERT INTO orders (customer_id, plan_id, base_paise, gst_paise, handling_paise, total_paise,
      status, paid_at, created_at, updated_at)
    SELECT c.id, ${byPlan(
      PLANS.map((p) => p.id),
      'uuid',
    )}, ${paise('basePaise')}, ${paise('gstPaise')}, ${paise('handlingPaise')}, ${paise('totalPaise')},
      s.status, CASE WHEN s.status IN ('Completed', 'Refunded') THEN t.at END, t.at, t.at
    FROM customers c
    CROSS JOIN generate_series(1, ${perCustomer}) AS i
    CROSS JOIN LATERAL (SELECT (${textArray(ORDER_STATES)})[1 + i % ${ORDER_STATES.length}] AS status) AS s
    CROSS JOIN LATERAL (SELECT now() - interval '2 hours' - i * interval '7 minutes' AS at) AS t
    WHERE ${where}`;
}

/** Runs each statement in turn, through the portal's own handle, on either database. */
export async function seed(db: Database, plan: SeedPlan) {
  const passwordHash = await hashPassword(PASSWORD);
  const statements = [
    `INSERT INTO partners (partner_id, name, api_key_hash, api_key_prefix)
       VALUES ${PARTNERS.map(([id, name]) => `(${literal(id)}, ${literal(name)}, md5(${literal(id)}), 'bench')`).join(', ')}`,
    `INSERT INTO plans (id, plan_name, plan_type, no_of_company, duration_days, amount_paise)
       VALUES ${PLANS.map((p) => `(${literal(p.id)}, ${literal(p.name)}, ${literal(p.type)}, ${p.companies}, 365, ${p.base})`).join(', ')}`,
    ...customersSql(passwordHash, plan),
    ...Object.entries(plan.measured).flatMap(([name, volume]) => {
      const where = `c.email = ${literal(accountOf(name).email)}`;
      return [consentsSql(where, volume.consents), ordersSql(where, volume.orders)];
    }),
    consentsSql(`c.email LIKE 'bench-other-%'`, plan.others.consents),
    ordersSql(`c.email LIKE 'bench-other-%'`, plan.others.orders),
    `INSERT INTO invoices (invoice_number, customer_id, order_id, issued_at, customer_gstin,
         place_of_supply, taxable_paise, cgst_paise, sgst_paise, igst_paise, total_paise, file_key,
         drawn_at)
       SELECT 'BENCH/' || o.id, o.customer_id, o.id, o.paid_at, c.gst_no, substr(c.gst_no, 1, 2),
              o.base_paise + o.handling_paise, 0, 0, o.gst_paise, o.total_paise,
              'receipts/' || o.id || '.pdf', o.paid_at
         FROM orders o JOIN customers c ON c.id = o.customer_id
        WHERE o.status IN ('Completed', 'Refunded')`,
    `INSERT INTO customer_plans (customer_id, plan_id, order_id, starts_at, ends_at)
       SELECT DISTINCT ON (customer_id) customer_id, plan_id, id, paid_at, paid_at + interval '365 days'
         FROM orders WHERE status = 'Completed' ORDER BY customer_id, paid_at DESC`,
    // what autovacuum would have done by the time a table is this big
    'VACUUM ANALYZE',
    // and what the checkpointer would have written by then: the seed's pages go to disk now,
    // not during the measurements, where the kernel's writing of them took 0.4 of a core
    'CHECKPOINT',
  ];
  for (const statement of statements) await db.execute(statement);
  await checkCounters(db);
}

/** The counters the triggers kept, against counting every row: a seed the portal would misread stops here. */
async function checkCounters(db: Database) {
  for (const [counters, table] of [
    ['consent_counts', 'consents'],
    ['order_counts', 'orders'],
  ] as const) {
    const result = await db.execute(
      `SELECT count(*)::int AS wrong FROM (
         SELECT customer_id, status, count(*)::int AS n FROM ${table} GROUP BY 1, 2) AS counted
       FULL JOIN (SELECT * FROM ${counters} WHERE n <> 0) AS kept USING (customer_id, status)
       WHERE counted.n IS DISTINCT FROM kept.n`,
    );
    const [row] = (result as unknown as { rows: { wrong: number }[] }).rows;
    if (row?.wrong) throw new Error(`${counters} disagrees with ${table} for ${row.wrong} counts`);
  }
}
