import { AppLayout } from '@/app/layout/app-layout';
import { getNotificationsQueryOptions } from '@/features/notifications/api/get-notifications';
import { queryClient } from '@/lib/query-client';
import { useSessionStore } from '@/lib/session-store';

/** Asks for the bell's notices before the signed-in layout first renders; nothing waits for it. */
export function loader() {
  if (useSessionStore.getState().isAuthenticated) {
    void queryClient.prefetchQuery({ ...getNotificationsQueryOptions(), staleTime: 0 });
  }
  return null;
}

export function Component() {
  return <AppLayout />;
}
