import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CONSENTS_PAGE_SIZE, consentDetailPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export interface ConsentHistoryPageQuery {
  userId: string;
  page: number;
  /** The page after or before one shown: its answer's cursor, which carries the page number. */
  after?: string;
  before?: string;
}

/** One page of the customer's revoked and expired consents, newest first. */
export async function getConsentHistory({ userId, page, after, before }: ConsentHistoryPageQuery) {
  const query = new URLSearchParams({ limit: String(CONSENTS_PAGE_SIZE), userId });
  if (after) query.set('after', after);
  else if (before) query.set('before', before);
  else query.set('page', String(page));
  return api.get(`${consentDetailPaths.history}?${query}`, {
    schema: responseSchema('ConsentHistoryResponseSchema'),
  });
}

export const getConsentHistoryQueryOptions = (query: ConsentHistoryPageQuery) =>
  queryOptions({
    queryKey: ['consents', 'history', query],
    queryFn: () => getConsentHistory(query),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export const useConsentHistory = (query: ConsentHistoryPageQuery, enabled: boolean) =>
  useQuery({ ...getConsentHistoryQueryOptions(query), enabled });
