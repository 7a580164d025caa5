import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { checkStatusPath } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';
import { getOrderHistoryQueryOptions } from './get-order-history';

export const checkPaymentStatus = (orderId: string) =>
  api.post(checkStatusPath(orderId), {}, { schema: responseSchema('CheckStatusResponseSchema') });

export const useCheckPaymentStatus = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: checkPaymentStatus,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: getOrderHistoryQueryOptions().queryKey }),
  });
};

/** While the bank has not answered, the order is asked about again this often... */
export const PENDING_POLL_MS = 3000;
/** ...for about two minutes; after that reconciliation settles it, and the row's check stays. */
const PENDING_POLL_LIMIT = 40;

/** The order the customer came back from the gateway with, asked until it is settled. */
export const getOrderResultQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: ['orders', 'result', orderId],
    queryFn: async () => (await checkPaymentStatus(orderId)).order,
    refetchInterval: (query) =>
      query.state.data?.paymentStatus === 'Pending' &&
      query.state.dataUpdateCount < PENDING_POLL_LIMIT
        ? PENDING_POLL_MS
        : false,
    retry: false,
  });

export const useOrderResult = (orderId: string) => useQuery(getOrderResultQueryOptions(orderId));
