import { ComingUpResponseSchema, ErrorResponseSchema, comingUpPath } from '@portal/contract';
import type { App } from '../../lib/types';
import { comingUpOf } from './coming-up';

export async function reminderRoutes(app: App) {
  app.get(
    comingUpPath,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['plans'],
        summary:
          "The dashboard's Coming up: the plan's end and days left, and the Approved consents expiring within 30 days",
        security: [{ bearer: [] }],
        response: { 200: ComingUpResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await comingUpOf(app.deps, request.auth.customerId),
    }),
  );
}
