import { z } from 'zod';
import { ActivityEventSchema, type ActivityEventType } from './activity';
import { dateTime } from './primitives';

/**
 * The events the bell tells about: payments settling, a plan activated or extended or about to
 * end, and every change of a consent's state (approved, rejected, expired, revoked and deleted).
 */
export const NOTIFICATION_EVENT_TYPES = [
  'payment_completed',
  'payment_failed',
  'payment_refunded',
  'plan_activated',
  'plan_ending',
  'consent_approved',
  'consent_rejected',
  'consent_expired',
  'consent_deleted',
] as const satisfies readonly ActivityEventType[];

/** Days before a plan's end when the bell starts telling about it. */
export const PLAN_ENDING_NOTICE_DAYS = 7;
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
