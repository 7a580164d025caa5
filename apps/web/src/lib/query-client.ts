import { QueryClient } from '@tanstack/react-query';

const statusOf = (error: unknown) => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : Infinity;
};

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
