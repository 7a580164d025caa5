import { useMemo } from 'react';
import { extensionNote } from '@/features/plans/components/plan-standing';
import { useSessionStore } from '@/lib/session-store';
import { useDashboardData } from '../api/get-dashboard-data';
import {
  dashboardActivity,
  dashboardCounters,
  recentActivity,
  recentOrders,
} from '../utils/dashboard-data';
import { DashboardView } from './dashboard-view';

/** Spec §2 Dashboard: the counts from the server's counters, the activity made on the client. */
export function Dashboard() {
  const sessionUser = useSessionStore((s) => s.user);
  const { profile, counters, consents, orders, plans } = useDashboardData(sessionUser?.id ?? '');
  const calls = [profile, counters, consents, orders, plans];

  const isLoading = calls.some((call) => call.isPending);
  const isError = calls.some((call) => call.isError);

  const activity = useMemo(
    () =>
      dashboardActivity({
        consents: consents.data?.data,
        orders: orders.data,
        user: profile.data ?? sessionUser,
        now: new Date(),
      }),
    [consents.data, orders.data, profile.data, sessionUser],
  );

  return (
    <DashboardView
      user={profile.data}
      sessionCompanyName={sessionUser?.company_name}
      counters={dashboardCounters(counters.data, plans.data?.plans)}
      planNote={extensionNote(plans.data?.current)}
      recentOrders={recentOrders(activity)}
      recentActivity={recentActivity(activity)}
      isLoading={isLoading && !isError}
      isError={isError}
    />
  );
}
