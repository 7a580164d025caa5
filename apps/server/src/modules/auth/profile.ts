import { formatPaise } from '@portal/contract';
import { sql } from 'drizzle-orm';
import type { CurrentPlan, User } from '@portal/contract';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { customerPlans, plans } from '../plans/schema';
import { customers } from '../users/schema';
import { findCustomerById } from '../users/service';
import type { Customer } from '../users/schema';
import { AppError } from '../../lib/errors';
import { currentPlanOf } from '../plans/current-plan';
import type { Executor } from '../../db/client';
import { sessions } from './schema';
import { createSessionStanding, unrevokedSession } from './sessions';

/** The user object of spec §3 as the API answers it. */
export function toUser(customer: Customer, plan: User['plan']): User {
  return {
    _id: customer.id,
    id: customer.id,
    company_name: customer.companyName,
    email: customer.email,
    mobile: customer.mobile,
    gstNo: customer.gstNo,
    category: customer.category,
    tally_serialno: customer.tallySerialNo,
    tally_version: customer.tallyVersion,
    customer_type: customer.customerType,
    created_at: customer.createdAt.toISOString(),
    plan,
  };
}

export async function getUser(db: Executor, clock: Clock, customerId: string): Promise<User> {
  // independent reads: on PostgreSQL they run side by side
  const [customer, plan] = await Promise.all([
    findCustomerById(db, customerId),
    currentPlanOf(db, customerId, clock.now()),
  ]);
  if (!customer) throw new AppError('UNAUTHORIZED', 'Unauthorized access. Please log in.');
  return toUser(customer, plan);
}

/** The period in force, as the statement returns it (JSON: timestamps are ISO strings). */
interface InForce {
  planName: string;
  amountPaise: number;
  durationDays: number;
  startsAt: string;
  /** Where the last period paid for ends. */
  endsAt: string;
}

const iso = (timestamp: string) => new Date(timestamp).toISOString();

function planOf(inForce: InForce | null): CurrentPlan | null {
  if (!inForce) return null;
  return {
    planName: inForce.planName,
    formattedAmount: formatPaise(inForce.amountPaise),
    formattedDuration: `${inForce.durationDays} ${inForce.durationDays === 1 ? 'day' : 'days'}`,
    startDate: iso(inForce.startsAt),
    endDate: iso(inForce.endsAt),
    status: 'Active',
  };
}

/**
 * The profile (spec §3's user with the plan in force) of a live session, in one prepared
 * statement that carries the session check: no row, no profile. The plan follows the rule of
 * plans/current-plan.ts: of the periods not over at `now`, the first (by start, then end) that
 * has begun is in force, and the plan ends where the last one queued after it ends.
 */
export function createProfileRead(db: Database, clock: Clock) {
  const now = sql.placeholder('now');
  const read = db
    .select({
      customer: customers,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
      inForce: sql<InForce | null>`(
        select json_build_object(
          'planName', ${plans.planName},
          'amountPaise', ${plans.amountPaise},
          'durationDays', ${plans.durationDays},
          'startsAt', ${customerPlans.startsAt},
          'endsAt', coalesce(
            (select queued.ends_at from ${customerPlans} queued
              where queued.customer_id = ${customerPlans.customerId}
                and queued.ends_at > ${now} and queued.starts_at > ${now}
              order by queued.starts_at desc, queued.ends_at desc limit 1),
            ${customerPlans.endsAt}))
        from ${customerPlans} inner join ${plans} on ${plans.id} = ${customerPlans.planId}
        where ${customerPlans.customerId} = ${customers.id}
          and ${customerPlans.endsAt} > ${now} and ${customerPlans.startsAt} <= ${now}
        order by ${customerPlans.startsAt}, ${customerPlans.endsAt} limit 1)`,
    })
    .from(sessions)
    .innerJoin(customers, sql`${customers.id} = ${sessions.customerId}`)
    .where(unrevokedSession())
    .limit(1)
    .prepare(
      // Stryker disable next-line StringLiteral: the name only lets PostgreSQL keep the parsed statement; unnamed, it is parsed each time and answers the same
      'profile',
    );
  const stands = createSessionStanding(db, clock);

  /** The profile, or null when the session no longer stands. */
  return async (sessionId: string, customerId: string): Promise<User | null> => {
    const [row] = await read.execute({ sessionId, customerId, now: clock.now() });
    if (!row || !(await stands(row, sessionId))) return null;
    return toUser(row.customer, planOf(row.inForce));
  };
}
