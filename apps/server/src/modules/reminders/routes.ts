import { ComingUpResponseSchema, ErrorResponseSchema, comingUpPath } from '@portal/contract';
import type { App } from '../../lib/types';
import { comingUpOf } from './coming-up';

export async function reminderRoutes(app: App) {
  app.get(
    comingUpPath,
    {
      // it only reads, and its statement reads the session with the card (decision 076)
      preHandler: app.authenticateInStatement,
      schema: {
        tags: ['plans'],
        summary:
          "The dashboard's Coming up: the plan's end and days left, and the Approved consents expiring within 30 days",
        security: [{ bearer: [] }],
        response: { 200: ComingUpResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      const { session, ...data } = await comingUpOf(app.deps, request.auth);
      await app.confirmSession(request, session);
      return { success: true as const, data };
    },
  );
}
