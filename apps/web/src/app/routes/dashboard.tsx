import { prefetchDashboardData } from '@/features/dashboard/api/get-dashboard-data';
import { Dashboard } from '@/features/dashboard/components/dashboard';
import { getComingUpQueryOptions } from '@/features/coming-up/api/get-coming-up';
import { getLastSignInQueryOptions } from '@/features/security/api/get-last-sign-in';
import { taskByTask } from '@/lib/next-task';
import { queryClient } from '@/lib/query-client';
import { useSessionStore } from '@/lib/session-store';

/**
 * Starts the dashboard's requests as soon as its code is in; the screen does not wait for them.
 * The two cards that ask for their own data (last sign-in, Coming up) are asked after them, a
 * task each: asked on mount instead, their requests would add to the task that draws the
 * dashboard.
 */
export function loader() {
  const { isAuthenticated, user } = useSessionStore.getState();
  if (!isAuthenticated || !user) return null;
  void prefetchDashboardData(queryClient, user.id).then(() =>
    taskByTask([
      () => queryClient.prefetchQuery(getLastSignInQueryOptions()),
      // asked afresh on every visit, and not again when the card mounts
      () => queryClient.prefetchQuery({ ...getComingUpQueryOptions(), staleTime: 0 }),
    ]),
  );
  return null;
}

export function Component() {
  return <Dashboard />;
}
