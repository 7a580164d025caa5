import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps';
import { sendDueReminders } from '../modules/reminders/service';
import { sendPreDebitNotices } from '../modules/auto-renewal/notices';

/**
 * One run of the reminders job: the reminders of plans ending and consents expiring that are due
 * and not yet sent (docs/decisions/040-the-plan-over-time.md). Each is sent once however often,
 * late or in parallel the job runs, so the schedule only decides how soon after a threshold the
 * reminder leaves. The auto-renewals' pre-debit notices go with them, 24 to 48 hours before each
 * charge.
 */
export async function runReminders(deps: AppDeps, log: FastifyBaseLogger) {
  const sent = await sendDueReminders(deps);
  if (sent > 0) log.info({ sent }, 'reminders sent');
  const notices = await sendPreDebitNotices(deps);
  if (notices > 0) log.info({ notices }, 'pre-debit notices sent');
}
