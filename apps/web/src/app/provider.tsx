import { lazy, Suspense, type ReactNode } from 'react';

// notices are never part of the first paint: the toaster (and Sonner) load after it
const Toaster = lazy(() => import('@/ui/toaster').then((module) => ({ default: module.Toaster })));

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </>
  );
}
