import { memo, useDeferredValue, useMemo } from 'react';
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

const MemoDashboardView = memo(DashboardView);

const LOADING = {
  user: undefined,
  counters: undefined,
  consents: undefined,
  orders: undefined,
  plans: undefined,
  isLoading: true,
  isError: false,
};

/** Spec §2 Dashboard: the counts from the server's counters, the activity made on the client. */
export function Dashboard() {
  const sessionUser = useSessionStore((s) => s.user);
  const { profile, counters, consents, orders, plans } = useDashboardData(sessionUser?.id ?? '');
  const calls = [profile, counters, consents, orders, plans];
  const isLoading = calls.some((call) => call.isPending);
  const isError = calls.some((call) => call.isError);

  // Until every call has answered the screen shows its loading view, which reads none of the
  // answers: one object for all of that time, so that an answer arriving does not draw the
  // whole screen again only to show the same placeholders.
  const drawsAnswers = !isLoading || isError;
  const answers = useMemo(
    () =>
      drawsAnswers
        ? {
            user: profile.data,
            counters: counters.data,
            consents: consents.data?.data,
            orders: orders.data,
            plans: plans.data,
            isLoading,
            isError,
          }
        : LOADING,
    [
      drawsAnswers,
      profile.data,
      counters.data,
      consents.data,
      orders.data,
      plans.data,
      isLoading,
      isError,
    ],
  );
  // Answers arrive in updates React must draw at once; drawing the screen from them is
  // deferred, so that it is done in slices the browser can interleave with its own work.
  const shown = useDeferredValue(answers);

  const {
    user,
    counters: counts,
    consents: consentList,
    orders: orderList,
    plans: catalogue,
  } = shown;
  // named apart: `.current` inside a memo reads, to the React compiler, like a ref
  const { plans: planList, current: planInForce } = catalogue ?? {};
  const view = useMemo(() => {
    const activity = dashboardActivity({
      consents: consentList,
      orders: orderList,
      user: user ?? sessionUser,
      now: new Date(),
    });
    return {
      counters: dashboardCounters(counts, planList),
      planNote: extensionNote(planInForce),
      recentOrders: recentOrders(activity),
      recentActivity: recentActivity(activity),
    };
  }, [user, counts, consentList, orderList, planList, planInForce, sessionUser]);

  return (
    <MemoDashboardView
      user={user}
      sessionCompanyName={sessionUser?.company_name}
      {...view}
      isLoading={shown.isLoading && !shown.isError}
      isError={shown.isError}
    />
  );
}
