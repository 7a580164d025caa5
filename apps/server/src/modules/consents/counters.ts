// The dashboard's counters from the stored counts (docs/decisions/028-keyset-pages-and-counters.md).
import type { DashboardCountersResponse } from '@portal/contract';
import {
  sessionOf,
  sessionReadText,
  type SessionColumns,
  type UnrevokedSession,
  type SessionAuth,
} from '../../db/session-read';
import { build, DUE, run, type ConsentReadDeps } from './read-statements';

// the session comes with the counts: no row at all when it is revoked (decision 076)
const COUNTERS = build('dashboard_counters', (p) => {
  const due = (status: string) =>
    `(SELECT count(*)::int FROM consents d
       WHERE d.customer_id = ${p('customer')} AND ${DUE('d', p)} AND d.status = '${status}')`;
  return sessionReadText(
    `(SELECT coalesce(json_object_agg(status, n), '{}') FROM consent_counts
      WHERE customer_id = ${p('customer')}) AS consents,
    ${due('Pending')} AS "duePending",
    ${due('Approved')} AS "dueApproved",
    (SELECT coalesce(json_object_agg(status, n), '{}') FROM order_counts
      WHERE customer_id = ${p('customer')}) AS orders,
    (SELECT count(*)::int FROM plans WHERE retired_at IS NULL) AS plans`,
    { session: p('session'), customer: p('customer') },
  );
});

type ByStatus = Partial<Record<string, number>>;

interface CountersRow extends SessionColumns {
  consents: ByStatus;
  duePending: number;
  dueApproved: number;
  orders: ByStatus;
  plans: number;
}

/**
 * The dashboard's counters and the consents screen's tiles: stored counts, one statement, with
 * the session read beside them for the route to confirm.
 */
export async function dashboardCounters(
  deps: ConsentReadDeps,
  { sessionId, customerId }: SessionAuth,
): Promise<{ data: DashboardCountersResponse['data']; session: UnrevokedSession | undefined }> {
  const [row] = await run<CountersRow>(deps, COUNTERS, {
    session: sessionId,
    customer: customerId,
    now: deps.clock.now(),
  });
  const consents = row?.consents ?? {};
  const due: ByStatus = { Pending: row?.duePending, Approved: row?.dueApproved };
  const orders = row?.orders ?? {};
  const n = (counts: ByStatus, status: string) => counts[status] ?? 0;
  const sum = (counts: ByStatus) => Object.values(counts).reduce<number>((a, b) => a + (b ?? 0), 0);
  return {
    data: {
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
    },
    session: sessionOf(row),
  };
}
