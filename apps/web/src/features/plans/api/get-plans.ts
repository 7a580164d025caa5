import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PlansResponse } from '@portal/contract';
import { getPlanCatalogueQueryOptions } from '@/lib/plan-catalogue';

/** The plans on offer, oldest first (spec §7 data.plans). */
export const getPlansQueryOptions = () =>
  queryOptions({
    ...getPlanCatalogueQueryOptions(),
    select: (data: PlansResponse['data']) => data.plans,
  });

export const usePlans = () => useQuery(getPlansQueryOptions());

export const usePlanCatalogue = () => useQuery(getPlanCatalogueQueryOptions());
