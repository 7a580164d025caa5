import { useState } from 'react';
import { PasskeysSection } from '@/features/passkeys/components/passkeys-section';
import { TwoFactorSection } from '@/features/two-factor/components/two-factor-section';
import { PageTitle } from '@/ui/page-title';
import { SessionsSection } from './sessions-section';
import { SignInHistorySection } from './sign-in-history-section';

/** The security centre: one card per section, in the order a customer looks for them. */
export function SecurityScreen() {
  // a second step turned on or off holds for new sign-ins only: the other sessions are offered
  // an end, so that each signs in again with it
  const [secondStepChanged, setSecondStepChanged] = useState(false);
  return (
    <div className="space-y-6">
      <PageTitle>Security</PageTitle>
      <SessionsSection
        offerSignOut={secondStepChanged}
        onOfferDone={() => setSecondStepChanged(false)}
      />
      <TwoFactorSection onChanged={() => setSecondStepChanged(true)} />
      <PasskeysSection onChanged={() => setSecondStepChanged(true)} />
      <SignInHistorySection />
    </div>
  );
}
