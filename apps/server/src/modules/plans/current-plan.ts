import { formatPaise } from '@portal/contract';
import { and, asc, eq, gt, max } from 'drizzle-orm';
import type {
  ComingUpPlan,
  CurrentPlan,
  Plan,
  PlanPeriod,
  PlanStanding,
  PurchaseOutcome,
} from '@portal/contract';
import type { Executor } from '../../db/client';
import { jsonInstant } from '../../db/session-read';
import { customerPlans, plans } from './schema';
import { DAY_MS } from '../../lib/clock';

/** A period not yet over, with its plan. */
export interface PeriodRow {
  orderId: string;
  planId: string;
  planName: string;
  amountPaise: number;
  durationDays: number;
  noOfCompany: number;
  retiredAt: Date | null;
  startsAt: Date;
  endsAt: Date;
}

/** The customer's periods not yet over at `now` (in force or queued), in order. */
function periodsAhead(db: Executor, customerId: string, now: Date): Promise<PeriodRow[]> {
  return db
    .select({
      orderId: customerPlans.orderId,
      planId: customerPlans.planId,
      planName: plans.planName,
      amountPaise: plans.amountPaise,
      durationDays: plans.durationDays,
      noOfCompany: plans.noOfCompany,
      retiredAt: plans.retiredAt,
      startsAt: customerPlans.startsAt,
      endsAt: customerPlans.endsAt,
    })
    .from(customerPlans)
    .innerJoin(plans, eq(plans.id, customerPlans.planId))
    .where(and(eq(customerPlans.customerId, customerId), gt(customerPlans.endsAt, now)))
    .orderBy(asc(customerPlans.startsAt), asc(customerPlans.endsAt));
}

/** A period as `periodsAheadColumn` writes it: instants as `jsonInstant` writes them. */
export interface PeriodJson extends Omit<PeriodRow, 'retiredAt' | 'startsAt' | 'endsAt'> {
  retiredAt: string | null;
  startsAt: string;
  endsAt: string;
}

/**
 * The rows of `periodsAhead` as one JSON value, for a screen's statement: `customer` and `now`
 * are its parameters (as '$2::uuid', '$3::timestamptz'). The customer's periods are found by
 * customer_plans_customer_ends_idx (customer_id, ends_at).
 */
export const periodsAheadColumn = (customer: string, now: string) =>
  `(SELECT coalesce(json_agg(json_build_object(
      'orderId', cp.order_id, 'planId', cp.plan_id, 'planName', p.plan_name,
      'amountPaise', p.amount_paise, 'durationDays', p.duration_days,
      'noOfCompany', p.no_of_company, 'retiredAt', ${jsonInstant('p.retired_at')},
      'startsAt', ${jsonInstant('cp.starts_at')}, 'endsAt', ${jsonInstant('cp.ends_at')}
    ) ORDER BY cp.starts_at, cp.ends_at), '[]')
    FROM customer_plans cp JOIN plans p ON p.id = cp.plan_id
    WHERE cp.customer_id = ${customer} AND cp.ends_at > ${now})`;

/** The periods a statement read with `periodsAheadColumn`, as `periodsAhead` gives them. */
export const periodsOf = (periods: PeriodJson[]): PeriodRow[] =>
  periods.map((period) => ({
    ...period,
    retiredAt: period.retiredAt === null ? null : new Date(period.retiredAt),
    startsAt: new Date(period.startsAt),
    endsAt: new Date(period.endsAt),
  }));

/**
 * When a period bought now starts: at the end of the last period paid for, or now. The one rule
 * for activation (which queues the period there) and for what the Plans screen promises.
 */
export function nextPeriodStart(lastEnd: Date | null, now: Date): Date {
  return lastEnd && lastEnd > now ? lastEnd : now;
}

export const periodEnd = (startsAt: Date, durationDays: number) =>
  new Date(startsAt.getTime() + durationDays * DAY_MS);

/** Whole days from `now` until `date`, rounded up; 0 for a date already past. */
export const daysUntil = (date: Date, now: Date) =>
  Math.max(0, Math.ceil((date.getTime() - now.getTime()) / DAY_MS));

/** What buying `plan` is to an account whose last period paid for is `last`. */
function changeOf(
  last: PeriodRow | undefined,
  plan: Pick<Plan, '_id' | 'noOfCompany'>,
): PurchaseOutcome['change'] {
  if (!last) return 'new';
  if (last.planId === plan._id) return 'renewal';
  return plan.noOfCompany > last.noOfCompany ? 'upgrade' : 'change';
}

interface Standing {
  inForce: PeriodRow;
  queued: PeriodRow[];
  /** The plan's end: the end of the last period paid for. */
  endsAt: Date;
}

function standingOf(rows: PeriodRow[], now: Date): Standing | null {
  const inForce = rows.find((r) => r.startsAt <= now);
  if (!inForce) return null;
  const queued = rows.filter((r) => r.startsAt > now);
  const last = queued.at(-1) ?? inForce;
  return { inForce, queued, endsAt: last.endsAt };
}

const toPeriod = (row: PeriodRow): PlanPeriod => ({
  orderId: row.orderId,
  planId: row.planId,
  planName: row.planName,
  startDate: row.startsAt.toISOString(),
  endDate: row.endsAt.toISOString(),
});

/**
 * The plan in force at `now` among the customer's periods not yet over, as the profile and the
 * dashboard show it: the period in force, ending where the last period paid for ends.
 */
export function currentPlanAt(periods: PeriodRow[], now: Date): CurrentPlan | null {
  const standing = standingOf(periods, now);
  if (!standing) return null;
  const { inForce } = standing;
  return {
    planName: inForce.planName,
    formattedAmount: formatPaise(inForce.amountPaise),
    formattedDuration: `${inForce.durationDays} ${inForce.durationDays === 1 ? 'day' : 'days'}`,
    startDate: inForce.startsAt.toISOString(),
    endDate: standing.endsAt.toISOString(),
    status: 'Active',
  };
}

/** The plan in force for a customer at `now` (`currentPlanAt`), read on its own. */
export async function currentPlanOf(
  db: Executor,
  customerId: string,
  now: Date,
): Promise<CurrentPlan | null> {
  return currentPlanAt(await periodsAhead(db, customerId, now), now);
}

/**
 * The customer's plan with its queued periods, from their periods not yet over at `now`, and
 * what buying a plan now would add, for the Plans screen and the "extended to" lines.
 */
export function planStandingAt(
  periods: PeriodRow[],
  now: Date,
): {
  current: PlanStanding | null;
  purchaseOf(plan: Pick<Plan, '_id' | 'duration' | 'noOfCompany'>): PurchaseOutcome;
} {
  const last = periods.at(-1);
  const start = nextPeriodStart(last?.endsAt ?? null, now);
  // docs/decisions/040-the-plan-over-time.md: every purchase queues after what is
  // paid for and is charged in full, so the days left are kept, never credited
  const purchaseOf = (plan: Pick<Plan, '_id' | 'duration' | 'noOfCompany'>): PurchaseOutcome => ({
    planId: plan._id,
    startDate: start.toISOString(),
    endDate: periodEnd(start, plan.duration).toISOString(),
    change: changeOf(last, plan),
    daysKept: daysUntil(start, now),
  });
  const standing = standingOf(periods, now);
  if (!standing) return { current: null, purchaseOf };
  const { inForce, queued, endsAt } = standing;
  return {
    current: {
      planId: inForce.planId,
      planName: inForce.planName,
      periodStartDate: inForce.startsAt.toISOString(),
      periodEndDate: inForce.endsAt.toISOString(),
      endDate: endsAt.toISOString(),
      daysLeft: daysUntil(endsAt, now),
      queued: queued.map(toPeriod),
    },
    purchaseOf,
  };
}

/**
 * The plan's end as the dashboard's Coming up shows it, from the customer's periods not yet over
 * at `now`: the plan in force, the end of the last period paid for, and the plan Renew orders
 * (that last period's, while it is still offered).
 */
export function comingUpPlanAt(periods: PeriodRow[], now: Date): ComingUpPlan | null {
  const standing = standingOf(periods, now);
  if (!standing) return null;
  const last = standing.queued.at(-1) ?? standing.inForce;
  return {
    planName: standing.inForce.planName,
    endDate: standing.endsAt.toISOString(),
    daysLeft: daysUntil(standing.endsAt, now),
    renewPlanId: last.retiredAt ? null : last.planId,
  };
}

/** The end of the last period the customer has paid for, if it is after `now`. */
export async function latestPlanEnd(
  db: Executor,
  customerId: string,
  now: Date,
): Promise<Date | null> {
  const [latest] = await db
    .select({ endsAt: max(customerPlans.endsAt) })
    .from(customerPlans)
    .where(and(eq(customerPlans.customerId, customerId), gt(customerPlans.endsAt, now)));
  return latest?.endsAt ?? null;
}
