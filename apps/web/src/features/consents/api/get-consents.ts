import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CONSENTS_PAGE_SIZE, consentPaths, type ConsentStatus } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export interface ConsentsPageQuery {
  userId: string;
  page: number;
  /** The page after or before one shown: its answer's cursor, which carries the page number. */
  after?: string;
  before?: string;
  consentStatus?: ConsentStatus;
  /** Partner name, consent ID or partner ID, matched by the server across every page. */
  search?: string;
  limit?: number;
}

/** One page of consents; the userId is the signed-in customer's own (spec §6). */
export async function getConsents({
  userId,
  page,
  after,
  before,
  consentStatus,
  search,
  limit = CONSENTS_PAGE_SIZE,
}: ConsentsPageQuery) {
  const query = new URLSearchParams({ limit: String(limit), userId });
  // a cursor carries its page number; a bare number is for page 1 and the pages a link names
  if (after) query.set('after', after);
  else if (before) query.set('before', before);
  else query.set('page', String(page));
  if (consentStatus) query.set('consentStatus', consentStatus);
  if (search) query.set('search', search);
  return api.get(`${consentPaths.list}?${query}`, {
    schema: responseSchema('ConsentListResponseSchema'),
  });
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
