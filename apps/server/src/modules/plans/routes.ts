import { ErrorResponseSchema, PlansResponseSchema, plansPath } from '@portal/contract';
import type { App } from '../../lib/types';
import { planStandingOf } from './current-plan';
import { listOfferedPlans } from './service';

export async function planRoutes(app: App) {
  app.get(
    plansPath,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['plans'],
        summary:
          "Plans on offer, oldest first, with the customer's plan and what buying each would add",
        security: [{ bearer: [] }],
        response: { 200: PlansResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      const { db, clock } = app.deps;
      // independent reads: on PostgreSQL they run side by side
      const [plans, standing] = await Promise.all([
        listOfferedPlans(db),
        planStandingOf(db, request.auth.customerId, clock.now()),
      ]);
      const { current, purchaseOf } = standing;
      return { success: true as const, data: { plans, current, purchases: plans.map(purchaseOf) } };
    },
  );
}
