import { queryOptions, useQuery } from '@tanstack/react-query';
import { dashboardPaths } from '@portal/contract';
import { api } from '@/lib/http';
import { responseSchema } from '@/lib/response-schema';

/**
 * The customer's counts, kept by the server with every write: the count tiles and the
 * dashboard's counters, without loading a single consent.
 */
export const getConsentCounters = async (userId: string) =>
  (
    await api.get(`${dashboardPaths.counters}?${new URLSearchParams({ userId })}`, {
      schema: responseSchema('DashboardCountersResponseSchema'),
    })
  ).data;

export const getConsentCountersQueryOptions = (userId: string) =>
  queryOptions({
    // under 'consents', so that a deleted or refreshed consent counts again
    queryKey: ['consents', 'counters', userId],
    queryFn: () => getConsentCounters(userId),
    staleTime: 0,
  });

export const useConsentCounters = (userId: string) =>
  useQuery(getConsentCountersQueryOptions(userId));
