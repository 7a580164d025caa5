import { and, desc, eq, gt, max } from 'drizzle-orm';
import type { Transaction } from '../../db/client';
import { customers } from '../users/schema';
import { nextPeriodStart, periodEnd } from './current-plan';
import { customerPlans } from './schema';

/**
 * Puts a paid plan on the customer's account: from now, or from the end of a plan still in
 * force, for the plan's duration; or, for an auto-renewal's charge, for the cycle the gateway
 * billed. Call it inside the transaction that completes the order.
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
  const { startsAt, endsAt } = input.billedCycle
    ? await billedPeriod(tx, input.customerId, input.billedCycle, input.durationDays)
    : await nextPeriod(tx, input.customerId, input.now, input.durationDays);
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

/** A purchase's period: from now, or from the end of the last period still to run. */
async function nextPeriod(tx: Transaction, customerId: string, now: Date, durationDays: number) {
  const [latest] = await tx
    .select({ endsAt: customerPlans.endsAt })
    .from(customerPlans)
    .where(and(eq(customerPlans.customerId, customerId), gt(customerPlans.endsAt, now)))
    .orderBy(desc(customerPlans.endsAt))
    .limit(1);
  const startsAt = nextPeriodStart(latest?.endsAt ?? null, now);
  return { startsAt, endsAt: periodEnd(startsAt, durationDays) };
}

/**
 * A subscription charge's period: the cycle the gateway billed, even when it is recorded late
 * (the cycle is what was paid for), from no earlier than where the last period ends. A cycle
 * the periods already cover lays the plan's duration after them instead.
 */
async function billedPeriod(
  tx: Transaction,
  customerId: string,
  cycle: { start: Date; end: Date },
  durationDays: number,
) {
  const [latest] = await tx
    .select({ endsAt: max(customerPlans.endsAt) })
    .from(customerPlans)
    .where(eq(customerPlans.customerId, customerId));
  const lastEnd = latest?.endsAt ?? null;
  // the gateway counts in whole seconds, so a cycle that follows the last period may start up
  // to a second before it ends: the period starts where the last one ends
  const startsAt = lastEnd && lastEnd > cycle.start ? lastEnd : cycle.start;
  if (cycle.end > startsAt) return { startsAt, endsAt: cycle.end };
  return { startsAt, endsAt: periodEnd(startsAt, durationDays) };
}

/** A refunded order's plan ends now (or never starts, when it was queued). */
export async function endPlanOfOrder(tx: Transaction, orderId: string, now: Date): Promise<void> {
  const [row] = await tx.select().from(customerPlans).where(eq(customerPlans.orderId, orderId));
  if (!row || row.endsAt <= now) return;
  const startsAt = row.startsAt > now ? now : row.startsAt;
  await tx.update(customerPlans).set({ startsAt, endsAt: now }).where(eq(customerPlans.id, row.id));
}
