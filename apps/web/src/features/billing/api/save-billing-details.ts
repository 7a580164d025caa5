import { useMutation, useQueryClient } from '@tanstack/react-query';
import { billingPaths, type BillingDetailsRequest } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';
import { getBillingDetailsQueryOptions } from './get-billing-details';

export const saveBillingDetails = (input: BillingDetailsRequest) =>
  api.put(billingPaths.details, input, {
    schema: responseSchema('SaveBillingDetailsResponseSchema'),
  });

export function useSaveBillingDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBillingDetails,
    onSettled: () => queryClient.invalidateQueries(getBillingDetailsQueryOptions()),
  });
}
