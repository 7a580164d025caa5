import { lazy, Suspense } from 'react';
import { ComingUpSkeleton } from './coming-up-skeleton';

// its own chunk: the dashboard's first load and first paint do not wait for it
const ComingUpCard = lazy(() =>
  import('./coming-up-card').then((module) => ({ default: module.ComingUpCard })),
);

/** The Coming up card, loaded after the dashboard has drawn. */
export function LazyComingUpCard() {
  return (
    <Suspense fallback={<ComingUpSkeleton />}>
      <ComingUpCard />
    </Suspense>
  );
}
