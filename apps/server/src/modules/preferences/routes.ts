import {
  ErrorResponseSchema,
  NotificationPreferencesRequestSchema,
  NotificationPreferencesResponseSchema,
  preferencesMessages,
  preferencesPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { readPreferences, savePreferences } from './service';

export async function preferencesRoutes(app: App) {
  app.get(
    preferencesPaths.notifications,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['privacy'],
        summary:
          'Which notices the signed-in customer receives: reminders and consent changes (security notices have no switch)',
        security: [{ bearer: [] }],
        response: { 200: NotificationPreferencesResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      message: preferencesMessages.fetched,
      data: await readPreferences(app.deps.db, request.auth.customerId),
    }),
  );

  app.put(
    preferencesPaths.notifications,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['privacy'],
        summary: 'Turns reminders and consent-change notices on or off',
        security: [{ bearer: [] }],
        body: NotificationPreferencesRequestSchema,
        response: {
          200: NotificationPreferencesResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          413: ErrorResponseSchema,
          415: ErrorResponseSchema,
        },
      },
    },
    async (request) => ({
      success: true as const,
      message: preferencesMessages.saved,
      data: await savePreferences(
        app.deps.db,
        app.deps.clock,
        request.auth.customerId,
        request.body,
      ),
    }),
  );
}
