// The gateway's plan behind each portal plan: how often it charges, and how much.
import { and, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { GatewayPlan } from '../../adapters/payment-gateway-subscriptions';
import { AppError } from '../../lib/errors';
import type { PlanRow } from '../plans/schema';
import { gatewayPlans } from './schema';

/** Razorpay's least interval for a daily plan, and its greatest for any. */
const LEAST_DAILY_INTERVAL = 7;
const GREATEST_INTERVAL = 100;

/**
 * The gateway's cycle for a plan's duration, exactly: years, months of 30 days, weeks or days.
 * Null when Razorpay has none (fewer than 7 days, or more than 100 of the unit).
 */
export function gatewayCycleOf(
  durationDays: number,
): Pick<GatewayPlan, 'period' | 'interval'> | null {
  const units: [GatewayPlan['period'], number][] = [
    ['yearly', 365],
    ['monthly', 30],
    ['weekly', 7],
    ['daily', 1],
  ];
  for (const [period, days] of units) {
    const interval = durationDays / days;
    if (!Number.isInteger(interval) || interval > GREATEST_INTERVAL) continue;
    if (period === 'daily' && interval < LEAST_DAILY_INTERVAL) return null;
    return { period, interval };
  }
  return null;
}

/**
 * The gateway plan that charges `amountPaise` every period of `plan`: the one made before, or a
 * new one. Two requests that make one at once keep the first stored; the other is never used.
 */
export async function gatewayPlanFor(
  deps: Pick<AppDeps, 'db' | 'payments'>,
  plan: PlanRow,
  amountPaise: number,
): Promise<string> {
  const { db } = deps;
  const find = async () => {
    const [row] = await db
      .select({ id: gatewayPlans.gatewayPlanId })
      .from(gatewayPlans)
      .where(and(eq(gatewayPlans.planId, plan.id), eq(gatewayPlans.amountPaise, amountPaise)));
    return row?.id;
  };
  const known = await find();
  if (known) return known;
  const cycle = gatewayCycleOf(plan.durationDays);
  if (!cycle) {
    throw new AppError('UNPROCESSABLE', `The ${plan.planName} plan cannot renew automatically`);
  }
  const made = await deps.payments.gateway.createPlan({
    ...cycle,
    name: plan.planName,
    amountPaise,
    description: `${plan.planName} plan, ${plan.durationDays} days`,
    notes: { plan_id: plan.id },
  });
  await db
    .insert(gatewayPlans)
    .values({ planId: plan.id, amountPaise, gatewayPlanId: made.id })
    .onConflictDoNothing();
  return (await find())!;
}
