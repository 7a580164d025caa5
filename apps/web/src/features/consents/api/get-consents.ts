import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  CONSENTS_PAGE_SIZE,
  ConsentListResponseSchema,
  consentPaths,
  type ConsentStatus,
} from '@portal/contract';
import { api } from '@/lib/http';

export interface ConsentsPageQuery {
  userId: string;
  page: number;
  consentStatus?: ConsentStatus;
  /** Partner name, consent ID or partner ID, matched by the server across every page. */
  search?: string;
}

/** One page of consents; the userId is the signed-in customer's own (spec §6). */
export async function getConsents({ userId, page, consentStatus, search }: ConsentsPageQuery) {
  const query = new URLSearchParams({
    page: String(page),
    limit: String(CONSENTS_PAGE_SIZE),
    userId,
  });
  if (consentStatus) query.set('consentStatus', consentStatus);
  if (search) query.set('search', search);
  return api.get(`${consentPaths.list}?${query}`, { schema: ConsentListResponseSchema });
}

export const getConsentsQueryOptions = (query: ConsentsPageQuery) =>
  queryOptions({
    queryKey: ['consents', 'list', query],
    queryFn: () => getConsents(query),
    staleTime: 0,
    // the table keeps its rows while the next page loads
    placeholderData: keepPreviousData,
  });

export const useConsents = (query: ConsentsPageQuery) => useQuery(getConsentsQueryOptions(query));
