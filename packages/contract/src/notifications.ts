import { z } from 'zod';
import { ActivityEventSchema, type ActivityEventType } from './activity';
import { dateTime } from './primitives';

/**
 * The events the bell tells about: payments settling, a plan activated or extended or about to
 * end, a consent about to expire, and every change of a consent's state (approved, rejected,
 * expired, paused, resumed, revoked and deleted). A plan's end and a consent's expiry are told by the reminders
 * job, 30, 7 and 1 days before (modules/reminders).
 */
export const NOTIFICATION_EVENT_TYPES = [
  'payment_completed',
  'payment_failed',
  'payment_refunded',
  'plan_activated',
  'plan_ending',
  'pre_debit_notice',
  'auto_renewal_halted',
  'consent_approved',
  'consent_rejected',
  'consent_expired',
  'consent_expiring',
  'consent_paused',
  'consent_resumed',
  'consent_deleted',
] as const satisfies readonly ActivityEventType[];

export const NOTIFICATIONS_SHOWN = 10;

/** What a notification is about, so that it can link there; the bank's id for a consent. */
export const NotificationTargetSchema = z.object({
  kind: z.enum(['order', 'consent']),
  id: z.string(),
});
export type NotificationTarget = z.infer<typeof NotificationTargetSchema>;

export const NotificationSchema = ActivityEventSchema.extend({
  seen: z.boolean(),
  /** Null when there is nothing left to open (a deleted consent, a plan reminder). */
  target: NotificationTargetSchema.nullable(),
});
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationsResponseSchema = z.object({
  success: z.literal(true),
  /** How many are unseen; the bell's dot shows when it is above 0. */
  unseen: z.number().int().nonnegative(),
  notifications: z.array(NotificationSchema),
});
export type NotificationsResponse = z.infer<typeof NotificationsResponseSchema>;

/** Marks as seen everything up to the newest notification the customer was shown. */
export const MarkNotificationsSeenRequestSchema = z.object({
  upTo: dateTime(),
});
export type MarkNotificationsSeenRequest = z.infer<typeof MarkNotificationsSeenRequestSchema>;

export const MarkNotificationsSeenResponseSchema = z.object({
  success: z.literal(true),
  unseen: z.number().int().nonnegative(),
});
export type MarkNotificationsSeenResponse = z.infer<typeof MarkNotificationsSeenResponseSchema>;
