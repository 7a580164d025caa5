import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { activityPaths, type ActivityKind } from '@portal/contract';
import { responseSchema } from '@/lib/response-schema';
import { api } from '@/lib/http';

export async function getActivity({ cursor, type }: { cursor?: string; type?: ActivityKind }) {
  const query = new URLSearchParams();
  if (cursor) query.set('cursor', cursor);
  if (type) query.set('type', type);
  const search = query.size > 0 ? `?${query}` : '';
  return api.get(`${activityPaths.feed}${search}`, {
    schema: responseSchema('ActivityFeedResponseSchema'),
  });
}

export const getActivityQueryOptions = (type?: ActivityKind) =>
  infiniteQueryOptions({
    queryKey: ['activity', type ?? 'all'],
    queryFn: ({ pageParam }) => getActivity({ cursor: pageParam, type }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useActivity = (type?: ActivityKind) => useInfiniteQuery(getActivityQueryOptions(type));
