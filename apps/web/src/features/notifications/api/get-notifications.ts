import { queryOptions, useQuery } from '@tanstack/react-query';
import { NotificationsResponseSchema, notificationPaths } from '@portal/contract';
import { api } from '@/lib/http';

export const getNotifications = () =>
  api.get(notificationPaths.list, { schema: NotificationsResponseSchema });

/** One light request on page load and whenever the window regains focus; no polling. */
export const getNotificationsQueryOptions = () =>
  queryOptions({
    queryKey: ['notifications'],
    queryFn: getNotifications,
    staleTime: 0,
    refetchOnWindowFocus: true,
    retry: false,
  });

export const useNotifications = () => useQuery(getNotificationsQueryOptions());
