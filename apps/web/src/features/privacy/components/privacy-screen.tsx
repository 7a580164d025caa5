import { PageTitle } from '@/ui/page-title';
import { CloseAccountSection } from './close-account-section';
import { CorrectionSection } from './correction-section';
import { DataExportSection } from './data-export-section';
import { EmailSection } from './email-section';
import { GrievanceSection } from './grievance-section';
import { NomineeSection } from './nominee-section';
import { NoticeSection } from './notice-section';
import { NotificationsSection } from './notifications-section';

/**
 * The customer's own data: what is done with it and why, how to reach them, what they hear about, a copy of it, correcting
 * it, who may act for them, where to complain, and closing.
 */
export function PrivacyScreen() {
  return (
    <div className="space-y-6">
      <PageTitle>Privacy</PageTitle>
      <NoticeSection />
      <EmailSection />
      <NotificationsSection />
      <DataExportSection />
      <CorrectionSection />
      <NomineeSection />
      <GrievanceSection />
      <CloseAccountSection />
    </div>
  );
}
