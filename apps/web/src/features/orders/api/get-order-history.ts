import { infiniteQueryOptions, queryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { orderPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

/** A page of the customer's orders, newest first: the first one without a cursor. */
export const getOrderHistoryPage = (cursor?: string) =>
  api.get(
    cursor ? `${orderPaths.history}?${new URLSearchParams({ cursor })}` : orderPaths.history,
    { schema: responseSchema('OrderHistoryResponseSchema') },
  );

export const getOrderHistory = async () => (await getOrderHistoryPage()).orders;

// receipt links are short-lived: keep the list fresh while it is on screen
const REFRESH_MS = 5 * 60 * 1000;

const HISTORY_KEY = ['orders', 'history'] as const;

/**
 * The first page of the history (the newest 10 orders). Its key is the prefix of every page's:
 * invalidating it after a payment refreshes the Order History tab's pages too.
 */
export const getOrderHistoryQueryOptions = () =>
  queryOptions({
    queryKey: HISTORY_KEY,
    queryFn: getOrderHistory,
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
  });

/** The history page by page, as far as the customer has loaded it. */
export const getOrderHistoryPagesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [...HISTORY_KEY, 'pages'],
    queryFn: ({ pageParam }) => getOrderHistoryPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
  });

export const useOrderHistoryPages = () => useInfiniteQuery(getOrderHistoryPagesQueryOptions());
