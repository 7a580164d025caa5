import { useQueries } from '@tanstack/react-query';
import { getUserConsentsQueryOptions } from '@/features/consents/api/get-user-consents';
import { getOrderHistoryQueryOptions } from '@/features/orders/api/get-order-history';
import { getPlanCatalogueQueryOptions } from '@/features/plans/api/get-plans';
import { getProfileQueryOptions } from '@/features/profile/api/get-profile';

/**
 * The spec §7 calls the dashboard is made of, side by side, through the owning features' query
 * options: one cache entry each, so their changes (a deleted consent, a new order) show here.
 * Cached answers show at once and are checked again on every visit.
 */
export function useDashboardData(userId: string) {
  const [profile, consents, orders, plans] = useQueries({
    queries: [
      { ...getProfileQueryOptions(), staleTime: 0 },
      { ...getUserConsentsQueryOptions(userId), staleTime: 0 },
      { ...getOrderHistoryQueryOptions(), staleTime: 0, refetchInterval: false as const },
      // the catalogue also carries the plan's queued periods ("extended to ...")
      getPlanCatalogueQueryOptions(),
    ],
  });
  return { profile, consents, orders, plans };
}
