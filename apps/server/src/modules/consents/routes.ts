import {
  ConsentListQuerySchema,
  ConsentListResponseSchema,
  ConsentStatusRequestSchema,
  ConsentStatusResponseSchema,
  DeleteConsentResponseSchema,
  ErrorResponseSchema,
  IdParamsSchema,
  UserConsentsResponseSchema,
  UserIdParamsSchema,
  consentPaths,
} from '@portal/contract';
import { AppError } from '../../lib/errors';
import type { App } from '../../lib/types';
import {
  deleteConsent,
  listAllConsents,
  listConsentPage,
  refreshConsentStatus,
} from './customer-consents';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
};

/** Spec §6: consents are scoped by the user id in the query; only one's own id is accepted. */
function requireSelf(userId: string, customerId: string) {
  if (userId !== customerId) {
    throw new AppError('FORBIDDEN', 'You can only view your own consents.');
  }
}

export async function consentRoutes(app: App) {
  const security = [{ bearer: [] }];
  const auth = { preHandler: app.authenticate };

  app.get(
    consentPaths.allForUser,
    {
      ...auth,
      schema: {
        tags: ['consents'],
        summary: "Every consent of the signed-in customer (the screen's counts)",
        security,
        params: UserIdParamsSchema,
        response: { 200: UserConsentsResponseSchema, ...errors },
      },
    },
    async (request) => {
      requireSelf(request.params.userId, request.auth.customerId);
      return {
        success: true as const,
        data: await listAllConsents(app.deps, request.auth.customerId),
      };
    },
  );

  app.get(
    consentPaths.list,
    {
      ...auth,
      schema: {
        tags: ['consents'],
        summary:
          'One page of the signed-in customer’s consents, optionally of one status and matching a search',
        security,
        querystring: ConsentListQuerySchema,
        response: { 200: ConsentListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { userId, page, limit, consentStatus, search } = request.query;
      requireSelf(userId, request.auth.customerId);
      const result = await listConsentPage(app.deps, request.auth.customerId, {
        page,
        limit,
        status: consentStatus,
        search,
      });
      return { success: true as const, ...result };
    },
  );

  app.post(
    consentPaths.getStatus,
    {
      ...auth,
      schema: {
        tags: ['consents'],
        summary: 'Asks the bank for the consent’s status, with the tokens the portal holds',
        security,
        body: ConsentStatusRequestSchema,
        response: { 200: ConsentStatusResponseSchema, ...errors, 502: ErrorResponseSchema },
      },
    },
    async (request) => {
      const data = await refreshConsentStatus(
        app.deps,
        request.auth.customerId,
        request.body.consentId,
      );
      return { success: true as const, message: 'Consent status refreshed', data };
    },
  );

  app.delete(
    consentPaths.remove,
    {
      ...auth,
      schema: {
        tags: ['consents'],
        summary: 'Revokes the consent at the bank, then deletes it',
        security,
        params: IdParamsSchema,
        response: { 200: DeleteConsentResponseSchema, ...errors, 502: ErrorResponseSchema },
      },
    },
    async (request) => {
      await deleteConsent(app.deps, request.auth.customerId, request.params.id);
      return { success: true as const, message: 'Consent deleted successfully' };
    },
  );
}
