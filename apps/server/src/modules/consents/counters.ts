// The dashboard's counters from the stored counts (docs/decisions/028-keyset-pages-and-counters.md).
import type { DashboardCountersResponse } from '@portal/contract';
import { build, DUE, run, type ConsentReadDeps } from './read-statements';

const COUNTERS = build('dashboard_counters', (p) => {
  const due = (status: string) =>
    `(SELECT count(*)::int FROM consents d
       WHERE d.customer_id = ${p('customer')} AND ${DUE('d', p)} AND d.status = '${status}')`;
  return `SELECT
    (SELECT coalesce(json_object_agg(status, n), '{}') FROM consent_counts
      WHERE customer_id = ${p('customer')}) AS consents,
    ${due('Pending')} AS "duePending",
    ${due('Approved')} AS "dueApproved",
    (SELECT coalesce(json_object_agg(status, n), '{}') FROM order_counts
      WHERE customer_id = ${p('customer')}) AS orders,
    (SELECT count(*)::int FROM plans WHERE retired_at IS NULL) AS plans`;
});

type ByStatus = Partial<Record<string, number>>;

/** The dashboard's counters and the consents screen's tiles: stored counts, one statement. */
export async function dashboardCounters(
  deps: ConsentReadDeps,
  customerId: string,
): Promise<DashboardCountersResponse['data']> {
  const [row] = await run<{
    consents: ByStatus;
    duePending: number;
    dueApproved: number;
    orders: ByStatus;
    plans: number;
  }>(deps, COUNTERS, { customer: customerId, now: deps.clock.now() });
  const consents = row?.consents ?? {};
  const due: ByStatus = { Pending: row?.duePending, Approved: row?.dueApproved };
  const orders = row?.orders ?? {};
  const n = (counts: ByStatus, status: string) => counts[status] ?? 0;
  const sum = (counts: ByStatus) => Object.values(counts).reduce<number>((a, b) => a + (b ?? 0), 0);
  return {
    // a revoked consent is in History only: the spec's total counts the list
    totalConsents: sum(consents) - n(consents, 'Revoked'),
    activeConsents: n(consents, 'Approved') - n(due, 'Approved'),
    pendingConsents: n(consents, 'Pending') - n(due, 'Pending'),
    expiredConsents: n(consents, 'Expired') + n(due, 'Approved') + n(due, 'Pending'),
    rejectedConsents: n(consents, 'Rejected'),
    totalPlans: row?.plans ?? 0,
    totalOrders: sum(orders),
    completedOrders: n(orders, 'Completed'),
    pendingOrders: n(orders, 'Pending'),
    failedOrders: n(orders, 'Failed'),
  };
}
