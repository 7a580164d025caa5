import { queryOptions, useQueries, type QueryClient } from '@tanstack/react-query';
import { DASHBOARD_ACTIVITY_CONSENTS, orderPaths } from '@portal/contract';
import { getConsentCountersQueryOptions } from '@/features/consents/api/get-consent-counters';
import { getConsentsQueryOptions } from '@/features/consents/api/get-consents';
import { getPlanCatalogueQueryOptions } from '@/lib/plan-catalogue';
import { getProfileQueryOptions } from '@/features/profile/api/get-profile';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';
import { JUST_FETCHED_MS } from '@/lib/query-client';
import { taskByTask } from '@/lib/next-task';

/**
 * The newest orders: the history's first answer (its newest, newest first), under 'orders' so
 * that a new or paid order shows here too.
 */
const newestOrdersQueryOptions = () =>
  queryOptions({
    queryKey: ['orders', 'history', 'newest'],
    queryFn: async () =>
      (await api.get(orderPaths.history, { schema: responseSchema('OrderHistoryResponseSchema') }))
        .orders,
    staleTime: 0,
  });

/**
 * What the dashboard is made of, through the owning features' query options: the profile, the
 * counts the server keeps, the first consents of the consents list, the newest orders and the
 * plan catalogue. Each is one small answer whatever the size of the account.
 */
const dashboardQueries = (userId: string) =>
  [
    { ...getProfileQueryOptions(), staleTime: JUST_FETCHED_MS },
    { ...getConsentCountersQueryOptions(userId), staleTime: JUST_FETCHED_MS },
    {
      ...getConsentsQueryOptions({ userId, page: 1, limit: DASHBOARD_ACTIVITY_CONSENTS }),
      staleTime: JUST_FETCHED_MS,
    },
    { ...newestOrdersQueryOptions(), staleTime: JUST_FETCHED_MS },
    // the catalogue also carries the plan's queued periods ("extended to ...")
    getPlanCatalogueQueryOptions(),
  ] as const;

/**
 * Sends the dashboard's requests without waiting for them, before the screen renders, so that
 * starting them is not part of its first render and their answers arrive sooner; a task each,
 * so that sending them is not one long task either. Settles once all are sent.
 */
export function prefetchDashboardData(client: QueryClient, userId: string) {
  const [profile, counters, consents, orders, plans] = dashboardQueries(userId);
  return taskByTask([
    // asked afresh on every visit; a request already on its way is shared, not repeated
    () => client.prefetchQuery({ ...profile, staleTime: 0 }),
    () => client.prefetchQuery({ ...counters, staleTime: 0 }),
    () => client.prefetchQuery({ ...consents, staleTime: 0 }),
    () => client.prefetchQuery({ ...orders, staleTime: 0 }),
    // the catalogue changes rarely: it keeps its own time of being current
    () => client.prefetchQuery(plans),
  ]);
}

/** The dashboard's data, side by side. */
export function useDashboardData(userId: string) {
  const [profile, counters, consents, orders, plans] = useQueries({
    queries: dashboardQueries(userId),
  });
  return { profile, counters, consents, orders, plans };
}
