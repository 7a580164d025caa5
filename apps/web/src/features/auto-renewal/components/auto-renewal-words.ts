import { PRE_DEBIT_NOTICE_HOURS, type AutoRenewal } from '@portal/contract';
import { formatDate } from '@/lib/format';

/** What the auto-renewal card and the dashboard's notice say, in one place. */
export const AUTO_RENEWAL_TITLE = 'Auto-renewal';

export const OFF_EXPLANATION = `Auto-renewal is off. Renew your plan automatically at the end of each period by UPI Autopay, e-mandate or card. You get a notice at least ${PRE_DEBIT_NOTICE_HOURS} hours before each debit, and can turn it off at any time.`;

export const TURN_ON = 'Turn on auto-renewal';
export const TURN_OFF = 'Turn off auto-renewal';
export const AUTHORISE = 'Authorise the mandate';
export const UPDATE_METHOD = 'Update payment method';
export const PAUSED = 'Automatic payments are paused.';
export const RETRYING =
  'The last automatic payment did not go through. We will try again; to pay another way, update your payment method.';

/** The end of the last period paid for, or null before the first charge. */
const endOf = ({ planEndDate }: Pick<AutoRenewal, 'planEndDate'>) =>
  planEndDate ? formatDate(planEndDate) : null;

export const authorisingLine = ({ planName }: Pick<AutoRenewal, 'planName'>) =>
  `Auto-renewal of your ${planName} plan is waiting for you to authorise the mandate at the payment gateway. No debit is made until you do.`;

export function endingLine(renewal: Pick<AutoRenewal, 'planEndDate'>) {
  const end = endOf(renewal);
  return end
    ? `Auto-renewal is off. Your plan ends on ${end}; no further debits will be made.`
    : 'Auto-renewal is off. No further debits will be made.';
}

export function haltedLine(renewal: Pick<AutoRenewal, 'planEndDate'>) {
  const end = endOf(renewal);
  return end
    ? `Automatic payments stopped after repeated failures. Your plan ends on ${end} unless you update your payment method.`
    : 'Automatic payments stopped after repeated failures. No debit is made until you update your payment method.';
}

/** Said in the confirmation, before the customer turns it off. */
export function turnOffWarning(renewal: Pick<AutoRenewal, 'planName' | 'planEndDate'>) {
  const end = endOf(renewal);
  const stays = end ? `Your ${renewal.planName} plan stays until ${end}. ` : '';
  return `${stays}No further debits will be made, and the mandate is cancelled at the bank.`;
}
