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

/** Spec §2 Dashboard: loads the four calls, derives counters and activity on the client. */
export function Dashboard() {
  const sessionUser = useSessionStore((s) => s.user);
  const { profile, consents, orders, plans } = useDashboardData(sessionUser?.id ?? '');

  const isLoading = profile.isPending || consents.isPending || orders.isPending || plans.isPending;
  const isError = profile.isError || consents.isError || orders.isError || plans.isError;

  const activity = useMemo(
    () =>
      dashboardActivity({
        consents: consents.data,
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
      counters={dashboardCounters(consents.data, orders.data, plans.data?.plans)}
      planNote={extensionNote(plans.data?.current)}
      recentOrders={recentOrders(activity)}
      recentActivity={recentActivity(activity)}
      isLoading={isLoading && !isError}
      isError={isError}
    />
  );
}
