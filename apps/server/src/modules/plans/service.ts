import { asc, eq } from 'drizzle-orm';
import type { Plan, PlansResponse } from '@portal/contract';
import type { Executor } from '../../db/client';
import {
  jsonInstant,
  runSessionRead,
  sessionReadText,
  type SessionColumns,
  type UnrevokedSession,
  type SessionAuth,
} from '../../db/session-read';
import type { Statement } from '../../db/statements';
import type { AppDeps } from '../../deps';
import { periodsAheadColumn, periodsOf, planStandingAt, type PeriodJson } from './current-plan';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/uuid';
import { plans, type PlanRow } from './schema';

/** What a plan on offer shows of its row. */
type ShownPlan = Pick<
  PlanRow,
  'id' | 'planName' | 'planType' | 'noOfCompany' | 'durationDays' | 'amountPaise' | 'createdAt'
>;

export function toPlan(row: ShownPlan): Plan {
  return {
    _id: row.id,
    planName: row.planName,
    planType: row.planType,
    noOfCompany: row.noOfCompany,
    duration: row.durationDays,
    amount: row.amountPaise / 100,
    createdDate: row.createdAt.toISOString(),
  };
}

/** A plan on offer as the Plans screen's statement writes it: its instant as text. */
interface OfferedPlanJson extends Omit<ShownPlan, 'createdAt'> {
  createdAt: string;
}

/**
 * The Plans screen: the plans on offer (spec §7), oldest first, and the customer's periods not
 * yet over at $3, with the request's session ($1, $2).
 */
const PLANS_SCREEN: Statement = {
  name: 'plans_screen',
  text: sessionReadText(`(SELECT coalesce(json_agg(json_build_object(
      'id', p.id, 'planName', p.plan_name, 'planType', p.plan_type,
      'noOfCompany', p.no_of_company, 'durationDays', p.duration_days,
      'amountPaise', p.amount_paise, 'createdAt', ${jsonInstant('p.created_at')}
    ) ORDER BY p.created_at, p.id), '[]')
    FROM plans p WHERE p.retired_at IS NULL) AS "plans",
  ${periodsAheadColumn('$2::uuid', '$3::timestamptz')} AS "periods"`),
};

interface PlansScreenRow extends SessionColumns {
  plans: OfferedPlanJson[];
  periods: PeriodJson[];
}

/**
 * The plans on offer, the customer's plan and what buying each plan would add, and the session
 * read beside them for the route to confirm.
 */
export async function plansScreenOf(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  auth: SessionAuth,
): Promise<PlansResponse['data'] & { session: UnrevokedSession | undefined }> {
  const now = deps.clock.now();
  const { row, session } = await runSessionRead<PlansScreenRow>(deps.db, auth, PLANS_SCREEN, [now]);
  const offered = (row?.plans ?? []).map((plan) =>
    toPlan({ ...plan, createdAt: new Date(plan.createdAt) }),
  );
  const { current, purchaseOf } = planStandingAt(periodsOf(row?.periods ?? []), now);
  return { plans: offered, current, purchases: offered.map(purchaseOf), session };
}

export async function listAllPlans(db: Executor): Promise<PlanRow[]> {
  return db.select().from(plans).orderBy(asc(plans.createdAt), asc(plans.id));
}

/** Any plan by id, retired or not (orders keep naming retired plans). */
export async function findPlan(db: Executor, id: string): Promise<PlanRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(plans).where(eq(plans.id, id));
  return row ?? null;
}

/** A plan a customer may still buy; unknown and retired plans are refused. */
export async function offeredPlan(db: Executor, id: string): Promise<PlanRow> {
  const plan = await findPlan(db, id);
  if (!plan) throw new AppError('NOT_FOUND', 'Plan not found');
  if (plan.retiredAt) throw new AppError('CONFLICT', 'This plan is no longer offered');
  return plan;
}

export interface NewPlan {
  planName: string;
  planType: 'Single' | 'Multi';
  noOfCompany: number;
  durationDays: number;
  amountPaise: number;
}

export function validateNewPlan(input: NewPlan): void {
  if (!input.planName.trim()) throw new AppError('BAD_REQUEST', 'Plan name is required');
  if (!['Single', 'Multi'].includes(input.planType))
    throw new AppError('BAD_REQUEST', 'Plan type must be Single or Multi');
  for (const [name, value] of [
    ['Number of companies', input.noOfCompany],
    ['Duration', input.durationDays],
    ['Amount', input.amountPaise],
  ] as const) {
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new AppError('BAD_REQUEST', `${name} must be a positive whole number`);
  }
}

export async function createPlan(db: Executor, clock: Clock, input: NewPlan): Promise<PlanRow> {
  validateNewPlan(input);
  const [row] = await db
    .insert(plans)
    .values({ ...input, planName: input.planName.trim(), createdAt: clock.now() })
    .returning();
  return row!;
}

/** Stops offering a plan; orders and activations that name it keep working. */
export async function retirePlan(db: Executor, clock: Clock, id: string): Promise<PlanRow> {
  const plan = await findPlan(db, id);
  if (!plan) throw new AppError('NOT_FOUND', 'Plan not found');
  if (plan.retiredAt) return plan;
  const [row] = await db
    .update(plans)
    .set({ retiredAt: clock.now() })
    .where(eq(plans.id, id))
    .returning();
  return row!;
}

/** The demo catalogue: Single and Multi, one and several companies, several durations. */
export const DEMO_PLANS: NewPlan[] = [
  {
    planName: 'Starter',
    planType: 'Single',
    noOfCompany: 1,
    durationDays: 30,
    amountPaise: 49_900,
  },
  {
    planName: 'Professional',
    planType: 'Single',
    noOfCompany: 1,
    durationDays: 365,
    amountPaise: 4_999_00,
  },
  {
    planName: 'Business',
    planType: 'Multi',
    noOfCompany: 5,
    durationDays: 180,
    amountPaise: 7_499_00,
  },
  {
    planName: 'Enterprise',
    planType: 'Multi',
    noOfCompany: 25,
    durationDays: 365,
    amountPaise: 19_999_00,
  },
];

export async function seedDemoPlans(db: Executor, clock: Clock): Promise<void> {
  const existing = await db.select({ id: plans.id }).from(plans).limit(1);
  if (existing.length > 0) return;
  const start = clock.now().getTime();
  // distinct created dates keep the catalogue's order stable
  await db
    .insert(plans)
    .values(DEMO_PLANS.map((p, i) => ({ ...p, createdAt: new Date(start + i * 1000) })));
}
