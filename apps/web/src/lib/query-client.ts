import { QueryClient } from '@tanstack/react-query';

const statusOf = (error: unknown) => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : Infinity;
};

/**
 * How long an answer counts as current when it was asked for by a route before its screen
 * rendered (a route's `loader` prefetch): the screen mounting a moment later takes that answer
 * instead of asking again, and every later visit asks afresh.
 */
export const JUST_FETCHED_MS = 2_000;

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // a 4xx will not get better by asking again; the status is read off the error (an
        // ApiError) rather than by its class, so that this module need not load lib/http
        retry: (failureCount, error) => !(statusOf(error) < 500) && failureCount < 2,
      },
    },
  });
}

/**
 * The app's one query cache. Only the screens that fetch load it (app/routes/with-queries.tsx),
 * so that the sign-in screen's first load goes without TanStack Query.
 */
export const queryClient = createQueryClient();
