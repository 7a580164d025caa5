import {
  ErrorResponseSchema,
  PARTNER_DOCUMENT_MAX_BYTES,
  PartnerAccountsResponseSchema,
  PartnerConsentParamsSchema,
  PartnerConsentRequestSchema,
  PartnerConsentResponseSchema,
  PartnerReconnectRequestsResponseSchema,
  PartnerTransactionsQuerySchema,
  PartnerTransactionsResponseSchema,
  partnerPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { readConsentAccounts, readConsentTransactions } from '../consents/access';
import {
  getPartnerConsent,
  listReconnectRequests,
  requestConsent,
} from '../consents/partner-consents';
import { createPartnerAuthenticate } from './authenticate';

const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  404: ErrorResponseSchema,
};

/** A read of data: refused by the consent's terms (403), its reads a day (429), or the bank (502). */
const readErrors = {
  ...errors,
  403: ErrorResponseSchema,
  429: ErrorResponseSchema,
  502: ErrorResponseSchema,
};

/** The API partners' software calls with its key; customers never reach it. */
export async function partnerRoutes(app: App) {
  app.decorateRequest('partner', null as never);
  const preHandler = createPartnerAuthenticate(app);
  const security = [{ partnerKey: [] }];

  app.post(
    partnerPaths.consents,
    {
      preHandler,
      // room for a base64 document at its size limit
      bodyLimit: Math.ceil((PARTNER_DOCUMENT_MAX_BYTES * 4) / 3) + 64 * 1024,
      schema: {
        tags: ['partner'],
        summary: 'Asks the customer’s bank for a consent; it is stored Pending',
        security,
        body: PartnerConsentRequestSchema,
        response: {
          200: PartnerConsentResponseSchema,
          201: PartnerConsentResponseSchema,
          ...errors,
          413: ErrorResponseSchema,
          415: ErrorResponseSchema,
          502: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const { consent, created } = await requestConsent(app.deps, request.partner, request.body);
      return reply.code(created ? 201 : 200).send({ success: true as const, data: consent });
    },
  );

  app.get(
    partnerPaths.consent,
    {
      preHandler,
      schema: {
        tags: ['partner'],
        summary: 'The status of one of this partner’s consents',
        security,
        params: PartnerConsentParamsSchema,
        response: { 200: PartnerConsentResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getPartnerConsent(app.deps, request.partner, request.params.consentId),
    }),
  );

  app.get(
    partnerPaths.accounts,
    {
      preHandler,
      schema: {
        tags: ['partner'],
        summary:
          'Reads the accounts an approved consent covers (masked), within its reads a day; each read is recorded as the consent’s last access',
        security,
        params: PartnerConsentParamsSchema,
        response: {
          200: PartnerAccountsResponseSchema,
          ...readErrors,
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await readConsentAccounts(app.deps, request.partner, request.params.consentId),
    }),
  );

  app.get(
    partnerPaths.transactions,
    {
      preHandler,
      schema: {
        tags: ['partner'],
        summary:
          'Reads the transactions of an approved consent that grants a ReadTransactions permission, within its transaction period and its reads a day; the bank records each read (decision 044)',
        security,
        params: PartnerConsentParamsSchema,
        querystring: PartnerTransactionsQuerySchema,
        response: { 200: PartnerTransactionsResponseSchema, ...readErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await readConsentTransactions(
        app.deps,
        request.partner,
        request.params.consentId,
        request.query,
      ),
    }),
  );

  app.get(
    partnerPaths.reconnectRequests,
    {
      preHandler,
      schema: {
        tags: ['partner'],
        summary:
          'This partner’s consents whose customers asked for a fresh consent, oldest first; a new request with replacesConsentId answers one (decision 041)',
        security,
        response: { 200: PartnerReconnectRequestsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listReconnectRequests(app.deps, request.partner),
    }),
  );
}
