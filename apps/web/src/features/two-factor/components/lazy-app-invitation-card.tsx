import { lazy, Suspense } from 'react';

// its own chunk, asked for after the dashboard has drawn; most customers never see it twice
const AppInvitationCard = lazy(() =>
  import('./app-invitation-card').then((module) => ({ default: module.AppInvitationCard })),
);

/** The invitation to add an authenticator app, or nothing, once its status has answered. */
export function LazyAppInvitationCard() {
  return (
    <Suspense fallback={null}>
      <AppInvitationCard />
    </Suspense>
  );
}
