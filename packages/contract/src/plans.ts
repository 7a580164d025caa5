import { z } from 'zod';

/** Spec §3 Plan. `amount` is the base price in rupees (GST and handling are added on top). */
export const PlanSchema = z.object({
  _id: z.string(),
  planName: z.string(),
  /** 'Single' or 'Multi'; any other value gets a default look. */
  planType: z.string(),
  noOfCompany: z.number().int(),
  /** Days. */
  duration: z.number().int(),
  amount: z.number(),
  createdDate: z.string(),
});
export type Plan = z.infer<typeof PlanSchema>;

/** One paid period on the account: from `startDate` (inclusive) to `endDate` (exclusive). */
export const PlanPeriodSchema = z.object({
  orderId: z.string(),
  planId: z.string(),
  planName: z.string(),
  startDate: z.string(),
  endDate: z.string(),
});
export type PlanPeriod = z.infer<typeof PlanPeriodSchema>;

/**
 * The customer's plan: the period in force and the periods paid after it. A purchase queues a
 * period at the end of the last one, so `endDate` (the plan's end, as the profile's End Date and
 * the dashboard's Active Until show it) is the end of the last queued period.
 */
export const PlanStandingSchema = z.object({
  planId: z.string(),
  planName: z.string(),
  /** The period in force now. */
  periodStartDate: z.string(),
  periodEndDate: z.string(),
  endDate: z.string(),
  /** Whole days until `endDate`, rounded up. */
  daysLeft: z.number().int(),
  /** Periods paid after the one in force, in order; empty when none is queued. */
  queued: z.array(PlanPeriodSchema),
});
export type PlanStanding = z.infer<typeof PlanStandingSchema>;

/** What buying a plan now would give: the period it would add. */
export const PurchaseOutcomeSchema = z.object({
  planId: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  /**
   * What the purchase is to the account (docs/decisions/040-the-plan-over-time.md):
   * the first plan, a renewal of the plan paid for last, an upgrade to more companies than that
   * plan, or another change. Every kind is charged in full and starts at `startDate`.
   */
  change: z.enum(['new', 'renewal', 'upgrade', 'change']),
  /** Whole days of the plan paid for that remain before `startDate`: kept, never credited. */
  daysKept: z.number().int(),
});
export type PurchaseOutcome = z.infer<typeof PurchaseOutcomeSchema>;

/**
 * `GET /api/plans`: sorted by created date, oldest first; with the customer's plan (null without
 * one) and, for each plan on offer, the period buying it now would add.
 */
export const PlansResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    plans: z.array(PlanSchema),
    current: PlanStandingSchema.nullable(),
    purchases: z.array(PurchaseOutcomeSchema),
  }),
});
export type PlansResponse = z.infer<typeof PlansResponseSchema>;
