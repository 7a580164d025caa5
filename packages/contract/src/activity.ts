import { z } from 'zod';

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
  'consent_requested',
  'consent_approved',
  'consent_rejected',
  'consent_expired',
  'consent_refreshed',
  'consent_deleted',
]);
export type ActivityEventType = z.infer<typeof ActivityEventTypeSchema>;

/** The look of an activity item (spec §3 Activity item). */
export const ActivityStatusSchema = z.enum(['success', 'pending', 'failed']);
export type ActivityStatus = z.infer<typeof ActivityStatusSchema>;
