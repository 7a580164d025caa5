import { queryOptions } from '@tanstack/react-query';
import { plansPath } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

/** The plans on offer with the customer's plan and what buying each would add: one call. */
export const getPlanCatalogue = async () =>
  (await api.get(plansPath, { schema: responseSchema('PlansResponseSchema') })).data;

export const getPlanCatalogueQueryOptions = () =>
  queryOptions({ queryKey: ['plans'], queryFn: getPlanCatalogue });
