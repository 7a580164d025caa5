import { lazy, Suspense } from 'react';

// its own chunk, asked for after the dashboard has drawn; shown only after a failed payment
const AutoRenewalNotice = lazy(() =>
  import('./auto-renewal-notice').then((module) => ({ default: module.AutoRenewalNotice })),
);

/** The dashboard's notice of a failed automatic payment, or nothing. */
export function LazyAutoRenewalNotice() {
  return (
    <Suspense fallback={null}>
      <AutoRenewalNotice />
    </Suspense>
  );
}
