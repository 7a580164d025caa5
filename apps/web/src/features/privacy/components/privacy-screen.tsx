import { PageTitle } from '@/ui/page-title';
import { CloseAccountSection } from './close-account-section';
import { EmailSection } from './email-section';
import { NotificationsSection } from './notifications-section';

/** The customer's own data: how to reach them, what they hear about, and closing the account. */
export function PrivacyScreen() {
  return (
    <div className="space-y-6">
      <PageTitle>Privacy</PageTitle>
      <EmailSection />
      <NotificationsSection />
      <CloseAccountSection />
    </div>
  );
}
