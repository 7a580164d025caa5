import { queryOptions, useQuery } from '@tanstack/react-query';
import { OrderHistoryResponseSchema, orderPaths } from '@portal/contract';
import { api } from '@/lib/http';

export const getOrderHistory = async () =>
  (await api.get(orderPaths.history, { schema: OrderHistoryResponseSchema })).orders;

// receipt links are short-lived: keep the list fresh while it is on screen
const REFRESH_MS = 5 * 60 * 1000;

export const getOrderHistoryQueryOptions = () =>
  queryOptions({
    queryKey: ['orders', 'history'],
    queryFn: getOrderHistory,
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
  });

export const useOrderHistory = () => useQuery(getOrderHistoryQueryOptions());
