import { CalendarRange } from 'lucide-react';
import type { Plan, PlanStanding, PurchaseOutcome } from '@portal/contract';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';
import { usePlanCatalogue } from '../api/get-plans';

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;
const companies = (n: number) => `${n} ${n === 1 ? 'company' : 'companies'}`;

type Chosen = Pick<Plan, 'planName' | 'noOfCompany'>;

/** A change to fewer companies than the plan in force (not known when that plan is not on offer). */
export const isDowngrade = (plan: Chosen, inForce: Pick<Plan, 'noOfCompany'> | undefined) =>
  inForce !== undefined && plan.noOfCompany < inForce.noOfCompany;

/**
 * What buying `plan` now does to the account, as the server worked it out (decision 040): a
 * purchase starts when what is paid for ends, is charged in full, and keeps the days left.
 * `inForce` is the plan in force, when it is on offer: against it a change is a downgrade.
 */
export function purchaseExplanation(
  plan: Chosen,
  current: PlanStanding | null,
  purchase: PurchaseOutcome,
  inForce?: Pick<Plan, 'noOfCompany'>,
): string {
  const until = formatDate(purchase.endDate);
  const from = formatDate(purchase.startDate);
  if (purchase.change === 'new' || !current) {
    return `${plan.planName} starts when you pay and runs until ${until}.`;
  }
  const kept = `The ${days(purchase.daysKept)} left on your current plan ${purchase.daysKept === 1 ? 'is' : 'are'} kept, not credited, and the full price is charged.`;
  if (purchase.change === 'renewal') {
    return `Renewal: ${plan.planName} runs on from ${from}, when your current plan ends, until ${until}. ${kept}`;
  }
  let what = `Change to ${plan.planName}.`;
  if (purchase.change === 'upgrade') what = `Upgrade to ${plan.planName}.`;
  else if (inForce && isDowngrade(plan, inForce)) {
    what = `Downgrade to ${plan.planName}: ${companies(plan.noOfCompany)} instead of ${companies(inForce.noOfCompany)}.`;
  }
  // another plan starts later than today, because the plan in force runs on until then
  return `${what} Your current plan stays until ${from}. The ${plan.planName} plan starts then. It runs until ${until}. ${kept}`;
}

/** On the order screen, before payment: when the chosen plan starts and what happens to the rest. */
export function PurchaseExplanation({ planId }: { planId: string | null }) {
  const { data } = usePlanCatalogue();
  const plan = data?.plans.find((p) => p._id === planId);
  const purchase = data?.purchases.find((p) => p.planId === planId);
  if (!data || !plan || !purchase) return null;
  const inForce = data.plans.find((p) => p._id === data.current?.planId);
  // a downgrade is said in the colours of a warning: fewer companies, from the date it starts
  const downgrade = purchase.change === 'change' && isDowngrade(plan, inForce);
  return (
    <p
      data-testid="purchase-explanation"
      className={cn(
        'mt-4 flex gap-2 rounded-md border px-3 py-2.5 text-sm',
        downgrade
          ? 'border-amber-300 bg-amber-50 text-amber-950'
          : 'border-blue-200 bg-blue-50 text-blue-950',
      )}
    >
      <CalendarRange
        className={cn('mt-0.5 h-4 w-4 shrink-0', downgrade ? 'text-amber-700' : 'text-blue-700')}
        aria-hidden="true"
      />
      <span>{purchaseExplanation(plan, data.current, purchase, inForce)}</span>
    </p>
  );
}
