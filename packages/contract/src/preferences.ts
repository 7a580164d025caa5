import { z } from 'zod';

/** Which notices the customer receives by e-mail. Security notices have no switch. */
export const preferencesPaths = {
  notifications: '/api/preferences/notifications',
} as const;

/** The kinds of notice a customer may turn off. */
export const NoticeKindSchema = z.enum(['reminders', 'consent-changes']);
export type NoticeKind = z.infer<typeof NoticeKindSchema>;

export const preferencesMessages = {
  fetched: 'Notification preferences fetched',
  saved: 'Notification preferences saved',
  choose: 'Say on or off for reminders and for consent changes',
} as const;

export const NotificationPreferencesSchema = z.object({
  /** Plan and consent expiry reminders (30, 7 and 1 days before). */
  reminders: z.boolean(),
  /** A mail when the bank moves one of the customer's consents to another status. */
  consentChanges: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

/** `PUT /api/preferences/notifications`: both switches, as booleans. */
export const NotificationPreferencesRequestSchema = z
  .object({
    reminders: z.boolean({ error: preferencesMessages.choose }),
    consentChanges: z.boolean({ error: preferencesMessages.choose }),
  })
  .strict();
export type NotificationPreferencesRequest = z.infer<typeof NotificationPreferencesRequestSchema>;

export const NotificationPreferencesResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: NotificationPreferencesSchema,
});
export type NotificationPreferencesResponse = z.infer<typeof NotificationPreferencesResponseSchema>;
