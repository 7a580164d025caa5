import { queryOptions, useQueries } from '@tanstack/react-query';
import {
  DASHBOARD_ACTIVITY_CONSENTS,
  OrderHistoryResponseSchema,
  orderPaths,
} from '@portal/contract';
import { getConsentCountersQueryOptions } from '@/features/consents/api/get-consent-counters';
import { getConsentsQueryOptions } from '@/features/consents/api/get-consents';
import { getPlanCatalogueQueryOptions } from '@/features/plans/api/get-plans';
import { getProfileQueryOptions } from '@/features/profile/api/get-profile';
import { api } from '@/lib/http';

/**
 * The newest orders: the history's first answer (its newest, newest first), under 'orders' so
 * that a new or paid order shows here too.
 */
const newestOrdersQueryOptions = () =>
  queryOptions({
    queryKey: ['orders', 'history', 'newest'],
    queryFn: async () =>
      (await api.get(orderPaths.history, { schema: OrderHistoryResponseSchema })).orders,
    staleTime: 0,
  });

/**
 * What the dashboard is made of, side by side, through the owning features' query options: the
 * profile, the counts the server keeps, the first consents of the consents list, the newest
 * orders and the plan catalogue. Each is one small answer whatever the size of the account.
 */
export function useDashboardData(userId: string) {
  const [profile, counters, consents, orders, plans] = useQueries({
    queries: [
      { ...getProfileQueryOptions(), staleTime: 0 },
      getConsentCountersQueryOptions(userId),
      getConsentsQueryOptions({ userId, page: 1, limit: DASHBOARD_ACTIVITY_CONSENTS }),
      newestOrdersQueryOptions(),
      // the catalogue also carries the plan's queued periods ("extended to ...")
      getPlanCatalogueQueryOptions(),
    ],
  });
  return { profile, counters, consents, orders, plans };
}
