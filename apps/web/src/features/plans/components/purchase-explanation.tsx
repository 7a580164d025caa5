import { CalendarRange } from 'lucide-react';
import type { Plan, PlanStanding, PurchaseOutcome } from '@portal/contract';
import { formatDate } from '@/lib/format';
import { usePlanCatalogue } from '../api/get-plans';

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/**
 * What buying `plan` now does to the account, as the server worked it out (decision 040): a
 * purchase starts when what is paid for ends, is charged in full, and keeps the days left.
 */
export function purchaseExplanation(
  plan: Pick<Plan, 'planName'>,
  current: PlanStanding | null,
  purchase: PurchaseOutcome,
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
  const what = purchase.change === 'upgrade' ? `Upgrade to ${plan.planName}` : plan.planName;
  return `${what}: starts ${from}, when your current plan ends, and runs until ${until}. Your ${current.planName} plan stays in force until then. ${kept}`;
}

/** On the order screen, before payment: when the chosen plan starts and what happens to the rest. */
export function PurchaseExplanation({ planId }: { planId: string | null }) {
  const { data } = usePlanCatalogue();
  const plan = data?.plans.find((p) => p._id === planId);
  const purchase = data?.purchases.find((p) => p.planId === planId);
  if (!data || !plan || !purchase) return null;
  return (
    <p
      data-testid="purchase-explanation"
      className="mt-4 flex gap-2 rounded-md border border-blue-200 bg-blue-50 px-3 py-2.5 text-sm text-blue-950"
    >
      <CalendarRange className="mt-0.5 h-4 w-4 shrink-0 text-blue-700" aria-hidden="true" />
      <span>{purchaseExplanation(plan, data.current, purchase)}</span>
    </p>
  );
}
