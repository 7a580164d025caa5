import {
  BillingDetailsRequestSchema,
  BillingDetailsResponseSchema,
  ErrorResponseSchema,
  SaveBillingDetailsResponseSchema,
  billingMessages,
  billingPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { sessionExpired } from '../auth/authenticate';
import { readBillingDetails, saveBillingDetails } from './service';

export async function billingRoutes(app: App) {
  app.get(
    billingPaths.details,
    {
      // it only reads, and its statement reads the session with the details (decision 076)
      preHandler: app.authenticateInStatement,
      schema: {
        tags: ['billing'],
        summary: "The signed-in customer's billing address and GSTIN, and the seller's State",
        security: [{ bearer: [] }],
        response: { 200: BillingDetailsResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      const { screen, session } = await readBillingDetails(app.deps, request.auth);
      await app.confirmSession(request, session);
      // Stryker disable next-line ConditionalExpression: a screen comes with its session, and confirmSession refuses a missing one first
      if (!screen) throw sessionExpired();
      return { success: true as const, message: billingMessages.fetched, ...screen };
    },
  );

  app.put(
    billingPaths.details,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['billing'],
        summary:
          "Saves the signed-in customer's billing address and GSTIN; orders placed before keep theirs",
        security: [{ bearer: [] }],
        body: BillingDetailsRequestSchema,
        response: {
          200: SaveBillingDetailsResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          413: ErrorResponseSchema,
          415: ErrorResponseSchema,
        },
      },
    },
    async (request) => ({
      success: true as const,
      message: billingMessages.saved,
      billingDetails: await saveBillingDetails(app.deps, request.auth.customerId, request.body),
    }),
  );
}
