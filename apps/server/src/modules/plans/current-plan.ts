import { and, desc, eq, gt, lte } from 'drizzle-orm';
import type { CurrentPlan } from '@portal/contract';
import type { Executor } from '../../db/client';
import { customerPlans, plans } from './schema';

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

/** The plan in force for a customer at `now`, as the profile and the dashboard show it. */
export async function currentPlanOf(
  db: Executor,
  customerId: string,
  now: Date,
): Promise<CurrentPlan | null> {
  const [row] = await db
    .select({
      planName: plans.planName,
      amountPaise: plans.amountPaise,
      durationDays: plans.durationDays,
      startsAt: customerPlans.startsAt,
      endsAt: customerPlans.endsAt,
    })
    .from(customerPlans)
    .innerJoin(plans, eq(plans.id, customerPlans.planId))
    .where(
      and(
        eq(customerPlans.customerId, customerId),
        lte(customerPlans.startsAt, now),
        gt(customerPlans.endsAt, now),
      ),
    )
    .orderBy(desc(customerPlans.startsAt))
    .limit(1);
  if (!row) return null;
  return {
    planName: row.planName,
    formattedAmount: inr.format(row.amountPaise / 100),
    formattedDuration: `${row.durationDays} ${row.durationDays === 1 ? 'day' : 'days'}`,
    startDate: row.startsAt.toISOString(),
    endDate: row.endsAt.toISOString(),
    status: 'Active',
  };
}
