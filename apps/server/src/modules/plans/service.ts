import { asc, eq, isNull } from 'drizzle-orm';
import type { Plan } from '@portal/contract';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { isUuid } from '../../lib/uuid';
import { plans, type PlanRow } from './schema';

export function toPlan(row: PlanRow): Plan {
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

/** Plans on offer, oldest first (spec §7). */
export async function listOfferedPlans(db: Executor): Promise<Plan[]> {
  const rows = await db
    .select()
    .from(plans)
    .where(isNull(plans.retiredAt))
    .orderBy(asc(plans.createdAt), asc(plans.id));
  return rows.map(toPlan);
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
