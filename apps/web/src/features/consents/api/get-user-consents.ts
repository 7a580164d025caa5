import { queryOptions, useQuery } from '@tanstack/react-query';
import { UserConsentsResponseSchema, userConsentsPath } from '@portal/contract';
import { api } from '@/lib/http';

/** Every consent of the customer: the count tiles (and the dashboard) are made from these. */
export const getUserConsents = async (userId: string) =>
  (await api.get(userConsentsPath(userId), { schema: UserConsentsResponseSchema })).data;

export const getUserConsentsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['consents', 'all', userId],
    queryFn: () => getUserConsents(userId),
    staleTime: 0,
  });

export const useUserConsents = (userId: string) => useQuery(getUserConsentsQueryOptions(userId));
