import { queryOptions, useQuery } from '@tanstack/react-query';
import { PlansResponseSchema, plansPath } from '@portal/contract';
import { api } from '@/lib/http';

export const getPlans = async () =>
  (await api.get(plansPath, { schema: PlansResponseSchema })).data.plans;

export const getPlansQueryOptions = () => queryOptions({ queryKey: ['plans'], queryFn: getPlans });

export const usePlans = () => useQuery(getPlansQueryOptions());
