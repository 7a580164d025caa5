import type { PlanStanding, PurchaseOutcome } from '@portal/contract';
import { formatDate } from '@/lib/format';

/**
 * Said wherever the plan's end is shown and a later period is queued: the plan's end is the end
 * of the last period paid for, and the period in force ends earlier.
 */
export function extensionNote(current: PlanStanding | null | undefined): string | null {
  if (!current || current.queued.length === 0) return null;
  const others = [...new Set(current.queued.map((p) => p.planName))].filter(
    (name) => name !== current.planName,
  );
  const withOthers = others.length > 0 ? ` with ${others.join(', ')}` : '';
  return `Extended to ${formatDate(current.endDate)}${withOthers}; the current period ends ${formatDate(current.periodEndDate)}.`;
}

/** The line under a plan's Purchase Plan button: what buying it now does to the account. */
export function purchaseNote(
  planId: string,
  current: PlanStanding | null | undefined,
  purchase: PurchaseOutcome | undefined,
): string | null {
  if (!current || !purchase) return null;
  if (planId === current.planId) return `Extends your plan to ${formatDate(purchase.endDate)}`;
  return `Starts ${formatDate(purchase.startDate)}, when your current plan ends`;
}

/** "59 days left, until 22/01/2027": the relative time beside the absolute one. */
export function daysLeftLabel(current: PlanStanding): string {
  const days = `${current.daysLeft} ${current.daysLeft === 1 ? 'day' : 'days'} left`;
  return `${days}, until ${formatDate(current.endDate)}`;
}
