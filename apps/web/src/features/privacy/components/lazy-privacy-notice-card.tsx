import { lazy, Suspense } from 'react';

// its own chunk, asked for after the dashboard has drawn; shown until the notice is read
const PrivacyNoticeCard = lazy(() =>
  import('./privacy-notice-card').then((module) => ({ default: module.PrivacyNoticeCard })),
);

/** The privacy notice's card, or nothing, once its status has answered. */
export function LazyPrivacyNoticeCard() {
  return (
    <Suspense fallback={null}>
      <PrivacyNoticeCard />
    </Suspense>
  );
}
