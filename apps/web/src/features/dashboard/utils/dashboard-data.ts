import {
  DASHBOARD_ACTIVITY_CONSENTS,
  DASHBOARD_ACTIVITY_LIMIT,
  DASHBOARD_ACTIVITY_ORDERS,
  type ActivityStatus,
  type Consent,
  type DashboardActivityItem,
  type DashboardCounters,
  type DashboardCountersResponse,
  type Order,
  type User,
} from '@portal/contract';
import { formatOrderRef } from '@/lib/format';

/** A dashboard activity item with the state of what it is about, shown once as its badge. */
export type DashboardRow = DashboardActivityItem & { state?: string };

/** Spec §4: Approved is success, Pending is pending, anything else failed. */
export function consentActivityStatus(status: string): ActivityStatus {
  if (status === 'Approved') return 'success';
  if (status === 'Pending') return 'pending';
  return 'failed';
}

/** Spec §4: Completed is success, Pending is pending, anything else failed. */
export function orderActivityStatus(status: string): ActivityStatus {
  if (status === 'Completed') return 'success';
  if (status === 'Pending') return 'pending';
  return 'failed';
}

/**
 * Spec §3 Dashboard counters, from the counts the server keeps; plans are null ('N/A') when the
 * plans could not be loaded, and every count 0 until the counts are there.
 */
export function dashboardCounters(
  counts: DashboardCountersResponse['data'] | undefined,
  plans?: readonly unknown[],
): DashboardCounters {
  return {
    totalConsents: counts?.totalConsents ?? 0,
    activeConsents: counts?.activeConsents ?? 0,
    pendingConsents: counts?.pendingConsents ?? 0,
    expiredConsents: counts?.expiredConsents ?? 0,
    totalPlans: plans ? plans.length : null,
    totalOrders: counts?.totalOrders ?? 0,
    completedOrders: counts?.completedOrders ?? 0,
    pendingOrders: counts?.pendingOrders ?? 0,
    failedOrders: counts?.failedOrders ?? 0,
  };
}

type ConsentForActivity = Pick<
  Consent,
  '_id' | 'consentId' | 'consentStatus' | 'partnerName' | 'createdAt'
>;
type OrderForActivity = Pick<
  Order,
  '_id' | 'planId' | 'formattedAmount' | 'orderDate' | 'paymentStatus'
>;

const time = (iso: string) => {
  const t = new Date(iso).getTime();
  return Number.isNaN(t) ? 0 : t;
};

/**
 * Spec §9: the first 2 consents, the first 2 orders and a welcome item, newest first.
 * Returned uncut, so that Recent Orders can pick its items; `recentActivity` cuts to 4.
 */
export function dashboardActivity(input: {
  consents?: readonly ConsentForActivity[];
  orders?: readonly OrderForActivity[];
  user?: Pick<User, 'company_name' | 'created_at'> | null;
  /** When there is no account date to show the welcome at. */
  now: Date;
}): DashboardRow[] {
  const consents = (input.consents ?? [])
    .slice(0, DASHBOARD_ACTIVITY_CONSENTS)
    .map((consent): DashboardRow => ({
      id: `consent-${consent._id}`,
      type: 'consent',
      title: `Consent for ${consent.partnerName}`,
      description: consent.consentId,
      date: consent.createdAt,
      status: consentActivityStatus(consent.consentStatus),
      state: consent.consentStatus,
    }));
  const orders = (input.orders ?? [])
    .slice(0, DASHBOARD_ACTIVITY_ORDERS)
    .map((order): DashboardRow => ({
      id: `order-${order._id}`,
      type: 'order',
      title: `Order for ${order.planId.planName}`,
      description: `${formatOrderRef(order._id)} · ${order.formattedAmount}`,
      date: order.orderDate,
      status: orderActivityStatus(order.paymentStatus),
      state: order.paymentStatus,
    }));
  const welcome: DashboardRow = {
    id: 'welcome',
    type: 'profile',
    title: 'Welcome to the customer portal',
    description: input.user?.company_name
      ? `Account of ${input.user.company_name} is ready`
      : 'Your account is ready',
    date: input.user?.created_at || input.now.toISOString(),
    status: 'success',
  };
  return [...consents, ...orders, welcome].sort((a, b) => time(b.date) - time(a.date));
}

/** What 'All Recent Activity' shows: the derived items cut to 4. */
export const recentActivity = (items: readonly DashboardRow[]) =>
  items.slice(0, DASHBOARD_ACTIVITY_LIMIT);

/** What 'Recent Orders' shows: the order-type items. */
export const recentOrders = (items: readonly DashboardRow[]) =>
  items.filter((item) => item.type === 'order');
