import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckStatusResponseSchema, checkStatusPath } from '@portal/contract';
import { api } from '@/lib/http';
import { getOrderHistoryQueryOptions } from './get-order-history';

export const checkPaymentStatus = (orderId: string) =>
  api.post(checkStatusPath(orderId), {}, { schema: CheckStatusResponseSchema });

export const useCheckPaymentStatus = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: checkPaymentStatus,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: getOrderHistoryQueryOptions().queryKey }),
  });
};
