import { queryOptions, useQuery } from '@tanstack/react-query';
import { comingUpPath } from '@portal/contract';
import { api } from '@/lib/http';
import { responseSchema } from '@/lib/response-schema';

/** The plan's end and the consents expiring soon, for the dashboard's Coming up card. */
export const getComingUp = async () =>
  (await api.get(comingUpPath, { schema: responseSchema('ComingUpResponseSchema') })).data;

export const getComingUpQueryOptions = () =>
  queryOptions({ queryKey: ['coming-up'], queryFn: getComingUp });

export const useComingUp = () => useQuery(getComingUpQueryOptions());
