import { queryOptions, useQuery } from '@tanstack/react-query';
import { notificationPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';
import { JUST_FETCHED_MS } from '@/lib/query-client';

export const getNotifications = () =>
  api.get(notificationPaths.list, { schema: responseSchema('NotificationsResponseSchema') });

/**
 * One light request on page load (sent by the signed-in layout's route before it renders) and
 * whenever the window regains focus; no polling.
 */
export const getNotificationsQueryOptions = () =>
  queryOptions({
    queryKey: ['notifications'],
    queryFn: getNotifications,
    staleTime: JUST_FETCHED_MS,
    refetchOnWindowFocus: true,
    retry: false,
  });

export const useNotifications = () => useQuery(getNotificationsQueryOptions());
