import { ErrorResponseSchema, PlansResponseSchema, plansPath } from '@portal/contract';
import type { App } from '../../lib/types';
import { listOfferedPlans } from './service';

export async function planRoutes(app: App) {
  app.get(
    plansPath,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['plans'],
        summary: 'Plans on offer, oldest first',
        security: [{ bearer: [] }],
        response: { 200: PlansResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async () => ({ success: true as const, data: { plans: await listOfferedPlans(app.deps.db) } }),
  );
}
