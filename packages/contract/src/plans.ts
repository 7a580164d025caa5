import { z } from 'zod';

export const plansPath = '/api/plans';

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

/** `GET /api/plans`: sorted by created date, oldest first. */
export const PlansResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ plans: z.array(PlanSchema) }),
});
export type PlansResponse = z.infer<typeof PlansResponseSchema>;
