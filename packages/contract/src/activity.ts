import { z } from 'zod';
import { ACTIVITY_PAGE_SIZE, ACTIVITY_MAX_PAGE_SIZE } from './values';
import { text } from './primitives';

/** What the server records for an account (the activity feed and the bell). */
export const ActivityEventTypeSchema = z.enum([
  'signin',
  'signin_failed',
  'password_changed',
  'password_reset',
  'order_created',
  'payment_completed',
  'payment_failed',
  'payment_refunded',
  'plan_activated',
  'plan_ending',
  'auto_renewal_on',
  'auto_renewal_off',
  'pre_debit_notice',
  'auto_renewal_halted',
  'consent_requested',
  'consent_approved',
  'consent_rejected',
  'consent_expired',
  'consent_expiring',
  'consent_refreshed',
  'consent_paused',
  'consent_resumed',
  'consent_deleted',
]);
export type ActivityEventType = z.infer<typeof ActivityEventTypeSchema>;

/** The look of an activity item (spec §3 Activity item). */
export const ActivityStatusSchema = z.enum(['success', 'pending', 'failed']);
export type ActivityStatus = z.infer<typeof ActivityStatusSchema>;

/** The kinds of spec §3 Activity item; the feed's type filter works on them. */
export const ActivityKindSchema = z.enum(['consent', 'order', 'profile']);
export type ActivityKind = z.infer<typeof ActivityKindSchema>;

const KIND_BY_TYPE: Record<ActivityEventType, ActivityKind> = {
  signin: 'profile',
  signin_failed: 'profile',
  password_changed: 'profile',
  password_reset: 'profile',
  order_created: 'order',
  payment_completed: 'order',
  payment_failed: 'order',
  payment_refunded: 'order',
  plan_activated: 'order',
  plan_ending: 'order',
  auto_renewal_on: 'order',
  auto_renewal_off: 'order',
  pre_debit_notice: 'order',
  auto_renewal_halted: 'order',
  consent_requested: 'consent',
  consent_approved: 'consent',
  consent_rejected: 'consent',
  consent_expired: 'consent',
  consent_expiring: 'consent',
  consent_refreshed: 'consent',
  consent_paused: 'consent',
  consent_resumed: 'consent',
  consent_deleted: 'consent',
};

export const activityKindOf = (type: ActivityEventType): ActivityKind => KIND_BY_TYPE[type];

export const activityTypesOfKind = (kind: ActivityKind): ActivityEventType[] =>
  ActivityEventTypeSchema.options.filter((type) => KIND_BY_TYPE[type] === kind);

export const ActivityFeedQuerySchema = z.object({
  /** Opaque: the nextCursor of the previous page. */
  cursor: text().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(ACTIVITY_MAX_PAGE_SIZE).default(ACTIVITY_PAGE_SIZE),
  type: ActivityKindSchema.optional(),
});
export type ActivityFeedQuery = z.input<typeof ActivityFeedQuerySchema>;

/** One recorded event as the feed and the bell show it. */
export const ActivityEventSchema = z.object({
  _id: z.string(),
  type: ActivityEventTypeSchema,
  kind: ActivityKindSchema,
  title: z.string(),
  description: z.string(),
  status: ActivityStatusSchema,
  createdAt: z.string(),
});
export type ActivityEvent = z.infer<typeof ActivityEventSchema>;

export const ActivityFeedResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(ActivityEventSchema),
  /** Null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ActivityFeedResponse = z.infer<typeof ActivityFeedResponseSchema>;
