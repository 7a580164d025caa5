import { z } from 'zod';
import { ActivityKindSchema, ActivityStatusSchema } from './activity';
import { text } from './primitives';

/** Spec §3 Activity item: derived on the client from consents, orders and the account. */
export const DashboardActivityItemSchema = z.object({
  id: z.string(),
  type: ActivityKindSchema,
  title: z.string(),
  description: z.string(),
  date: z.string(),
  status: ActivityStatusSchema,
});
export type DashboardActivityItem = z.infer<typeof DashboardActivityItemSchema>;

/** Spec §3 Dashboard counters; `totalPlans` is null when the plans could not be loaded ('N/A'). */
export const DashboardCountersSchema = z.object({
  totalConsents: z.number().int(),
  activeConsents: z.number().int(),
  pendingConsents: z.number().int(),
  expiredConsents: z.number().int(),
  totalPlans: z.number().int().nullable(),
  totalOrders: z.number().int(),
  completedOrders: z.number().int(),
  pendingOrders: z.number().int(),
  failedOrders: z.number().int(),
});
export type DashboardCounters = z.infer<typeof DashboardCountersSchema>;

/** Spec §6: scoped by the signed-in customer's own id, like the consents calls. */
export const DashboardCountersQuerySchema = z.object({
  userId: text({ error: 'userId is required' }).min(1, 'userId is required').max(100),
});

/** The dashboard's counters, and the rejected consents the consents screen's tiles add. */
export const DashboardCountersResponseSchema = z.object({
  success: z.literal(true),
  data: DashboardCountersSchema.extend({ rejectedConsents: z.number().int() }),
});
export type DashboardCountersResponse = z.infer<typeof DashboardCountersResponseSchema>;
