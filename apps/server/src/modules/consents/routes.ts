import {
  ConsentDetailResponseSchema,
  ConsentHistoryQuerySchema,
  ConsentHistoryResponseSchema,
  ConsentListQuerySchema,
  ConsentListResponseSchema,
  ConsentStatusRequestSchema,
  ConsentStatusResponseSchema,
  DashboardCountersQuerySchema,
  DashboardCountersResponseSchema,
  DeleteConsentResponseSchema,
  ErrorResponseSchema,
  IdParamsSchema,
  UserConsentsResponseSchema,
  ConsentChangeResponseSchema,
  UserIdParamsSchema,
  consentDetailPaths,
  consentPaths,
  dashboardPaths,
} from '@portal/contract';
import { Readable } from 'node:stream';
import { AppError } from '../../lib/errors';
import type { App } from '../../lib/types';
import { deleteConsent, refreshConsentStatus } from './customer-consents';
import { dashboardCounters } from './counters';
import { storeDueExpiries } from './expiry';
import { allConsentBatches, listConsentHistory, listConsentPage } from './pages';
import { changeConsentPause } from './pause';
import { getOwnConsent, requestReconnect } from './reconnect';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
};

/** Spec §6: consents are scoped by the user id in the query; only one's own id is accepted. */
function requireSelf(userId: string, customerId: string, what = 'consents') {
  if (userId !== customerId) {
    throw new AppError('FORBIDDEN', `You can only view your own ${what}.`);
  }
}

/**
 * `{"success":true,"data":[…]}` written batch by batch as the rows are read, so that neither the
 * list nor its JSON is ever whole in memory. A failure after the first bytes ends the connection:
 * the client sees a cut answer, never a complete-looking short one.
 */
async function* allConsentsJson(batches: AsyncGenerator<unknown[]>) {
  yield '{"success":true,"data":[';
  let first = true;
  for await (const batch of batches) {
    for (const consent of batch) {
      yield (first ? '' : ',') + JSON.stringify(consent);
      first = false;
    }
  }
  yield ']}';
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
        summary:
          'Every consent of the signed-in customer, newest first, streamed as it is read (docs/decisions/028)',
        security,
        params: UserIdParamsSchema,
        response: { 200: UserConsentsResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { customerId } = request.auth;
      requireSelf(request.params.userId, customerId);
      // the expiry of what is due is stored (and told in the activity) before the list is read
      await storeDueExpiries(app.deps, customerId);
      const body = Readable.from(allConsentsJson(allConsentBatches(app.deps, request.auth)));
      // a stream is piped as it is, past the schema's serializer: the JSON is made above
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  app.get(
    consentPaths.list,
    {
      // it only reads, and its statement reads the session with the page (decision 046)
      preHandler: app.authenticateInStatement,
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
      const { userId, page, limit, consentStatus, search, after, before } = request.query;
      requireSelf(userId, request.auth.customerId);
      const { session, ...result } = await listConsentPage(app.deps, request.auth, {
        page,
        limit,
        status: consentStatus,
        search,
        after,
        before,
      });
      await app.confirmSession(request, session);
      return { success: true as const, ...result };
    },
  );

  // registered here, beside the counts it reads, so that the app needs no route of its own for it
  app.get(
    dashboardPaths.counters,
    {
      // it only reads, and its statement reads the session with the counts (decision 076)
      preHandler: app.authenticateInStatement,
      schema: {
        tags: ['dashboard'],
        summary:
          "The dashboard's counters and the consents screen's tiles, from counters kept with every write",
        security,
        querystring: DashboardCountersQuerySchema,
        response: { 200: DashboardCountersResponseSchema, ...errors },
      },
    },
    async (request) => {
      requireSelf(request.query.userId, request.auth.customerId, 'counters');
      const { session, ...counters } = await dashboardCounters(app.deps, request.auth);
      await app.confirmSession(request, session);
      return { success: true as const, ...counters };
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

  app.get(
    consentDetailPaths.history,
    {
      ...auth,
      schema: {
        tags: ['consents'],
        summary: 'One page of the signed-in customer’s past consents (revoked and expired)',
        security,
        querystring: ConsentHistoryQuerySchema,
        response: { 200: ConsentHistoryResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { userId, page, limit, after, before } = request.query;
      requireSelf(userId, request.auth.customerId);
      const { session, ...result } = await listConsentHistory(app.deps, request.auth, {
        page,
        limit,
        after,
        before,
      });
      await app.confirmSession(request, session);
      return { success: true as const, ...result };
    },
  );

  app.get(
    consentDetailPaths.one,
    {
      ...auth,
      schema: {
        tags: ['consents'],
        summary: 'One of the signed-in customer’s current consents',
        security,
        params: IdParamsSchema,
        response: { 200: ConsentDetailResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getOwnConsent(app.deps, request.auth.customerId, request.params.id),
    }),
  );

  app.post(
    consentDetailPaths.reconnect,
    {
      ...auth,
      schema: {
        tags: ['consents'],
        summary:
          'Asks the partner for a fresh consent in place of an expired or expiring one (decision 041)',
        security,
        params: IdParamsSchema,
        response: { 200: ConsentChangeResponseSchema, ...errors, 409: ErrorResponseSchema },
      },
    },
    async (request) => {
      const data = await requestReconnect(app.deps, request.auth.customerId, request.params.id);
      return {
        success: true as const,
        message: `${data.partnerName} has been asked to reconnect.`,
        data,
      };
    },
  );

  for (const action of ['pause', 'resume'] as const) {
    app.post(
      consentDetailPaths[action],
      {
        ...auth,
        schema: {
          tags: ['consents'],
          summary:
            action === 'pause'
              ? 'Pauses an approved consent at the bank: the partner’s reads are refused until it is resumed (decision 077)'
              : 'Resumes a paused consent at the bank: the partner may read again under its terms',
          security,
          params: IdParamsSchema,
          response: {
            200: ConsentChangeResponseSchema,
            ...errors,
            409: ErrorResponseSchema,
            502: ErrorResponseSchema,
          },
        },
      },
      async (request) => {
        const data = await changeConsentPause(
          app.deps,
          request.auth.customerId,
          request.params.id,
          action,
        );
        return {
          success: true as const,
          message: action === 'pause' ? 'Consent paused' : 'Consent resumed',
          data,
        };
      },
    );
  }
}
