import { ErrorResponseSchema, PlansResponseSchema, plansPath } from '@portal/contract';
import type { App } from '../../lib/types';
import { plansScreenOf } from './service';

export async function planRoutes(app: App) {
  app.get(
    plansPath,
    {
      // it only reads, and its statement reads the session with the screen (decision 076)
      preHandler: app.authenticateInStatement,
      schema: {
        tags: ['plans'],
        summary:
          "Plans on offer, oldest first, with the customer's plan and what buying each would add",
        security: [{ bearer: [] }],
        response: { 200: PlansResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      const { session, ...data } = await plansScreenOf(app.deps, request.auth);
      await app.confirmSession(request, session);
      return { success: true as const, data };
    },
  );
}
