import { prefetchDashboardData } from '@/features/dashboard/api/get-dashboard-data';
import { Dashboard } from '@/features/dashboard/components/dashboard';
import { queryClient } from '@/lib/query-client';
import { useSessionStore } from '@/lib/session-store';

/** Starts the dashboard's requests as soon as its code is in; the screen does not wait for them. */
export function loader() {
  const { isAuthenticated, user } = useSessionStore.getState();
  if (isAuthenticated && user) prefetchDashboardData(queryClient, user.id);
  return null;
}

export function Component() {
  return <Dashboard />;
}
