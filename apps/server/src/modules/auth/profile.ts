import { formatPaise } from '@portal/contract';
import type { CurrentPlan, User } from '@portal/contract';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { findCustomerById } from '../users/service';
import type { Customer } from '../users/schema';
import { AppError } from '../../lib/errors';
import { currentPlanOf } from '../plans/current-plan';
import type { Executor } from '../../db/client';
import {
  jsonInstant,
  runSessionRead,
  sessionReadText,
  type SessionColumns,
  type UnrevokedSession,
} from '../../db/session-read';
import type { Statement } from '../../db/statements';

/** What the user object shows of the customer's row. */
type ShownCustomer = Pick<
  Customer,
  | 'id'
  | 'companyName'
  | 'email'
  | 'mobile'
  | 'gstNo'
  | 'category'
  | 'tallySerialNo'
  | 'tallyVersion'
  | 'customerType'
  | 'createdAt'
>;

/** The user object of spec §3 as the API answers it. */
export function toUser(customer: ShownCustomer, plan: User['plan']): User {
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

/** The period in force, as the statement writes it: instants as `toISOString` does. */
interface InForce {
  planName: string;
  amountPaise: number;
  durationDays: number;
  startsAt: string;
  /** Where the last period paid for ends. */
  endsAt: string;
}

function planOf(inForce: InForce | null): CurrentPlan | null {
  if (!inForce) return null;
  return {
    planName: inForce.planName,
    formattedAmount: formatPaise(inForce.amountPaise),
    formattedDuration: `${inForce.durationDays} ${inForce.durationDays === 1 ? 'day' : 'days'}`,
    startDate: inForce.startsAt,
    endDate: inForce.endsAt,
    status: 'Active',
  };
}

/** What the profile shows of the customer's row, as the statement writes it. */
type ProfileCustomer = Omit<ShownCustomer, 'createdAt'> & { createdAt: string };

interface ProfileRow extends SessionColumns {
  customer: ProfileCustomer;
  inForce: InForce | null;
}

/**
 * The profile (spec §3's user with the plan in force) with the request's session: no row, no
 * profile. The plan follows the rule of plans/current-plan.ts: of the periods not over at $3,
 * the first (by start, then end) that has begun is in force, and the plan ends where the last
 * one queued after it ends.
 */
export const PROFILE: Statement = {
  // Stryker disable next-line StringLiteral: the name only lets PostgreSQL keep the parsed statement; unnamed, it is parsed each time and answers the same
  name: 'profile',
  text: sessionReadText(`(SELECT json_build_object('id', c.id, 'companyName', c.company_name,
      'email', c.email, 'mobile', c.mobile, 'gstNo', c.gst_no, 'category', c.category,
      'tallySerialNo', c.tally_serial_no, 'tallyVersion', c.tally_version,
      'customerType', c.customer_type, 'createdAt', ${jsonInstant('c.created_at')})
    FROM customers c WHERE c.id = s.customer_id) AS customer,
  (SELECT json_build_object('planName', p.plan_name, 'amountPaise', p.amount_paise,
      'durationDays', p.duration_days, 'startsAt', ${jsonInstant('cp.starts_at')},
      'endsAt', ${jsonInstant(`coalesce(
        (SELECT queued.ends_at FROM customer_plans queued
          WHERE queued.customer_id = cp.customer_id
            AND queued.ends_at > $3::timestamptz AND queued.starts_at > $3::timestamptz
          ORDER BY queued.starts_at DESC, queued.ends_at DESC LIMIT 1),
        cp.ends_at)`)})
    FROM customer_plans cp JOIN plans p ON p.id = cp.plan_id
    WHERE cp.customer_id = s.customer_id
      AND cp.ends_at > $3::timestamptz AND cp.starts_at <= $3::timestamptz
    ORDER BY cp.starts_at, cp.ends_at LIMIT 1) AS "inForce"`),
};

/** The profile of the request's customer, and the session read with it for the route to confirm. */
export async function readProfile(
  deps: { db: Database; clock: Clock },
  auth: { sessionId: string; customerId: string },
): Promise<{ user: User | undefined; session: UnrevokedSession | undefined }> {
  const { row, session } = await runSessionRead<ProfileRow>(deps.db, auth, PROFILE, [
    deps.clock.now(),
  ]);
  const user =
    row &&
    toUser({ ...row.customer, createdAt: new Date(row.customer.createdAt) }, planOf(row.inForce));
  return { user, session };
}
