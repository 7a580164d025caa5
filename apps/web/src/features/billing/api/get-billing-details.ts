import { queryOptions, useQuery } from '@tanstack/react-query';
import { billingPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export const getBillingDetails = () =>
  api.get(billingPaths.details, { schema: responseSchema('BillingDetailsResponseSchema') });

export const getBillingDetailsQueryOptions = () =>
  queryOptions({ queryKey: ['billing-details'], queryFn: getBillingDetails });

export const useBillingDetails = () => useQuery(getBillingDetailsQueryOptions());
