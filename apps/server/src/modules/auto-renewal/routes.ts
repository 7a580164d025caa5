import {
  AutoRenewalResponseSchema,
  ErrorResponseSchema,
  StartAutoRenewalRequestSchema,
  autoRenewalMessages,
  autoRenewalPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { sessionExpired } from '../auth/authenticate';
import { readAutoRenewal, startAutoRenewal, stopAutoRenewal } from './service';

export async function autoRenewalRoutes(app: App) {
  app.get(
    autoRenewalPaths.renewal,
    {
      // it only reads, and its statement reads the session with the renewal (decision 076)
      preHandler: app.authenticateInStatement,
      schema: {
        tags: ['auto-renewal'],
        summary: "The signed-in customer's auto-renewal and its mandate; null when it is off",
        security: [{ bearer: [] }],
        response: { 200: AutoRenewalResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      const { renewal, session } = await readAutoRenewal(app.deps, request.auth);
      await app.confirmSession(request, session);
      // Stryker disable next-line ConditionalExpression: a read comes with its session, and confirmSession refuses a missing one first
      if (!session) throw sessionExpired();
      return { success: true as const, message: autoRenewalMessages.fetched, autoRenewal: renewal };
    },
  );

  app.post(
    autoRenewalPaths.renewal,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auto-renewal'],
        summary:
          'Sets up auto-renewal of a plan; the customer authorises the mandate at authoriseUrl',
        security: [{ bearer: [] }],
        body: StartAutoRenewalRequestSchema,
        response: {
          200: AutoRenewalResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          404: ErrorResponseSchema,
          409: ErrorResponseSchema,
          415: ErrorResponseSchema,
          422: ErrorResponseSchema,
          502: ErrorResponseSchema,
        },
      },
    },
    async (request) => ({
      success: true as const,
      message: autoRenewalMessages.started,
      autoRenewal: await startAutoRenewal(app.deps, request.auth.customerId, request.body),
    }),
  );

  app.delete(
    autoRenewalPaths.renewal,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['auto-renewal'],
        summary:
          'Turns auto-renewal off: nothing more is debited, and the period paid for runs out',
        security: [{ bearer: [] }],
        response: {
          200: AutoRenewalResponseSchema,
          401: ErrorResponseSchema,
          404: ErrorResponseSchema,
          502: ErrorResponseSchema,
        },
      },
    },
    async (request) => ({
      success: true as const,
      message: autoRenewalMessages.turnedOff,
      autoRenewal: await stopAutoRenewal(app.deps, request.auth.customerId),
    }),
  );
}
