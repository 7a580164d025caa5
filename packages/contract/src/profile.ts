import { z } from 'zod';

/**
 * The customer's profile as the API answers it (spec §3 User profile), apart from auth's request
 * schemas: the web checks the profile on its first screen, where building those and the
 * second factor's cost a phone tens of milliseconds.
 */

/** The current plan as the profile shows it (spec §3 User profile `plan`). */
export const CurrentPlanSchema = z.object({
  planName: z.string(),
  formattedAmount: z.string(),
  formattedDuration: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  status: z.string(),
});
export type CurrentPlan = z.infer<typeof CurrentPlanSchema>;

/** Every profile field of spec §3; `_id` and `id` carry the same value. */
export const UserSchema = z.object({
  _id: z.string(),
  id: z.string(),
  company_name: z.string(),
  email: z.string(),
  mobile: z.string(),
  gstNo: z.string(),
  category: z.string().nullable(),
  tally_serialno: z.string(),
  tally_version: z.string().nullable(),
  customer_type: z.string(),
  created_at: z.string(),
  plan: CurrentPlanSchema.nullable(),
});
export type User = z.infer<typeof UserSchema>;

export const ProfileResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ user: UserSchema }),
});
export type ProfileResponse = z.infer<typeof ProfileResponseSchema>;
