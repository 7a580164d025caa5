import { TwoFactorSection } from '@/features/two-factor/components/two-factor-section';
import { PageTitle } from '@/ui/page-title';
import { SessionsSection } from './sessions-section';
import { SignInHistorySection } from './sign-in-history-section';

/** The security centre: one card per section, in the order a customer looks for them. */
export function SecurityScreen() {
  return (
    <div className="space-y-6">
      <PageTitle>Security</PageTitle>
      <SessionsSection />
      <TwoFactorSection />
      <SignInHistorySection />
    </div>
  );
}
