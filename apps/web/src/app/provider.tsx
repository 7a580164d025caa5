import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';

// notices are never part of the first paint: the toaster (and Sonner) load after it
const Toaster = lazy(() => import('@/ui/toaster').then((module) => ({ default: module.Toaster })));

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
        // ApiError) rather than by its class, so that the first screen need not load lib/http
        retry: (failureCount, error) => !(statusOf(error) < 500) && failureCount < 2,
      },
    },
  });
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  );
}
