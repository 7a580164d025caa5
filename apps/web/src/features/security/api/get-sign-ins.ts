import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { securityPaths } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export const getSignIns = (cursor?: string) =>
  api.get(`${securityPaths.signIns}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, {
    schema: responseSchema('SignInHistoryResponseSchema'),
  });

export const getSignInsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['security', 'sign-ins'],
    queryFn: ({ pageParam }) => getSignIns(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useSignIns = () => useInfiniteQuery(getSignInsQueryOptions());
