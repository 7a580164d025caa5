import { queryOptions, useQuery } from '@tanstack/react-query';
import { plansPath, type PlansResponse } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

/** The plans on offer with the customer's plan and what buying each would add: one call. */
export const getPlanCatalogue = async () =>
  (await api.get(plansPath, { schema: responseSchema('PlansResponseSchema') })).data;

export const getPlanCatalogueQueryOptions = () =>
  queryOptions({ queryKey: ['plans'], queryFn: getPlanCatalogue });

/** The plans on offer, oldest first (spec §7 data.plans). */
export const getPlansQueryOptions = () =>
  queryOptions({
    ...getPlanCatalogueQueryOptions(),
    select: (data: PlansResponse['data']) => data.plans,
  });

export const usePlans = () => useQuery(getPlansQueryOptions());

export const usePlanCatalogue = () => useQuery(getPlanCatalogueQueryOptions());
