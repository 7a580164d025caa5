import { z } from 'zod';

/** The plan's end as the card shows it, with the plan Renew orders (null: no longer offered). */
export const ComingUpPlanSchema = z.object({
  planName: z.string(),
  /** The end of the last period paid for. */
  endDate: z.string(),
  /** Whole days until `endDate`, rounded up. */
  daysLeft: z.number().int(),
  renewPlanId: z.string().nullable(),
});
export type ComingUpPlan = z.infer<typeof ComingUpPlanSchema>;

/** An Approved consent that expires within the window. */
export const ExpiringConsentSchema = z.object({
  _id: z.string(),
  /** The bank's ConsentId, as the consents screen shows and searches it. */
  consentId: z.string(),
  partnerName: z.string(),
  expiresAt: z.string(),
  daysLeft: z.number().int(),
});
export type ExpiringConsent = z.infer<typeof ExpiringConsentSchema>;

/**
 * `GET /api/coming-up`: the signed-in customer's plan end (null without a plan) and their
 * Approved consents expiring within COMING_UP_DAYS: how many (counted up to `countCap`, with
 * `more` when there are more) and the soonest few.
 */
export const ComingUpResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    plan: ComingUpPlanSchema.nullable(),
    consents: z.object({
      windowDays: z.number().int(),
      count: z.number().int(),
      more: z.boolean(),
      soonest: z.array(ExpiringConsentSchema),
    }),
  }),
});
export type ComingUpResponse = z.infer<typeof ComingUpResponseSchema>;
