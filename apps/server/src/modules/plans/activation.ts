import { and, desc, eq, gt } from 'drizzle-orm';
import type { Transaction } from '../../db/client';
import { customers } from '../users/schema';
import { nextPeriodStart, periodEnd } from './current-plan';
import { customerPlans } from './schema';

/**
 * Puts a paid plan on the customer's account: from now, or from the end of a plan still in
 * force, for the plan's duration, or for the cycle the gateway billed (an auto-renewal's charge)
 * when it is given and starts there. Call it inside the transaction that completes the order.
 */
export async function activatePlan(
  tx: Transaction,
  input: {
    customerId: string;
    planId: string;
    orderId: string;
    durationDays: number;
    now: Date;
    billedCycle?: { start: Date; end: Date } | undefined;
  },
): Promise<{ startsAt: Date; endsAt: Date }> {
  const [existing] = await tx
    .select({ startsAt: customerPlans.startsAt, endsAt: customerPlans.endsAt })
    .from(customerPlans)
    .where(eq(customerPlans.orderId, input.orderId));
  if (existing) return existing;
  // one customer's plans are laid end to end: two orders completing at once must queue
  await tx
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.id, input.customerId))
    .for('no key update');
  const [latest] = await tx
    .select({ endsAt: customerPlans.endsAt })
    .from(customerPlans)
    .where(and(eq(customerPlans.customerId, input.customerId), gt(customerPlans.endsAt, input.now)))
    .orderBy(desc(customerPlans.endsAt))
    .limit(1);
  const startsAt = nextPeriodStart(latest?.endsAt ?? null, input.now);
  // a cycle billed from where the plan ends (or from now) is the period; another lays the plan's
  // duration end to end, as a purchase does
  const cycle = input.billedCycle;
  const endsAt =
    // Stryker disable next-line EqualityOperator: the gateway counts in whole seconds
    cycle && Math.abs(cycle.start.getTime() - startsAt.getTime()) < 1000 && cycle.end > startsAt
      ? cycle.end
      : periodEnd(startsAt, input.durationDays);
  await tx.insert(customerPlans).values({
    customerId: input.customerId,
    planId: input.planId,
    orderId: input.orderId,
    startsAt,
    endsAt,
    createdAt: input.now,
  });
  return { startsAt, endsAt };
}

/** A refunded order's plan ends now (or never starts, when it was queued). */
export async function endPlanOfOrder(tx: Transaction, orderId: string, now: Date): Promise<void> {
  const [row] = await tx.select().from(customerPlans).where(eq(customerPlans.orderId, orderId));
  if (!row || row.endsAt <= now) return;
  const startsAt = row.startsAt > now ? now : row.startsAt;
  await tx.update(customerPlans).set({ startsAt, endsAt: now }).where(eq(customerPlans.id, row.id));
}
