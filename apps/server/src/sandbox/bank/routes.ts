import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { App } from '../../lib/types';
import { renderSandboxBankPage } from './page';
import {
  authoriseBankConsent,
  createBankConsent,
  findBankConsent,
  isBankConsentId,
  listBankConsents,
  rejectBankConsent,
  revokeBankConsent,
  SandboxBankError,
  setBankConsentStatus,
} from './service';
import {
  REFUSED,
  iso,
  readAtBank,
  sandboxTransactions,
  summariseBankReads,
  type BankRead,
} from './reads';
import type { SandboxBankConsent } from './schema';
import {
  CONSENT_ACCESS_TOKEN_HEADER,
  CreateConsentBodySchema,
  ReadQuerySchema,
  StatusChangeBodySchema,
  type BankResource,
  type ConsentResponse,
  type ReadQuery,
  type ReadResponse,
  type StatusChangeBody,
} from '../../adapters/bank-wire';
import { SANDBOX_BANK_CLIENT_ID, SANDBOX_BANK_PREFIX, SANDBOX_BANK_SECRET_KEY } from './settings';
import type { SandboxBankOptions } from '../../deps';

/** The Authorization header the sandbox bank accepts, for its API and its page alike. */
export const sandboxBankAuthorization = ({ clientId, clientSecret }: SandboxBankOptions) =>
  `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;

/** Where a person finds the sandbox bank's credentials; the page's sign-in prompt says so. */
export const SANDBOX_BANK_SIGN_IN =
  `The sandbox bank asks for its client credentials: user "${SANDBOX_BANK_CLIENT_ID}", ` +
  `password the value of "${SANDBOX_BANK_SECRET_KEY}" in DATA_DIR/secrets.json (docs/consents.md).`;

const digest = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

function bankError(reply: FastifyReply, status: number, message: string, errorCode?: string) {
  const code = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    409: 'Conflict',
    429: 'TooManyRequests',
  }[status];
  return reply.code(status).send({
    Code: `${status} ${code ?? 'Error'}`,
    Message: message,
    Errors: [{ ErrorCode: errorCode ?? `UK.OBIE.${code ?? 'Error'}`, Message: message }],
  });
}

function toWire(row: SandboxBankConsent, selfUrl: string): ConsentResponse {
  // a paused consent keeps its tokens: they read again once it is resumed
  const tokens =
    (row.status === 'Authorised' || row.status === 'Paused') &&
    row.accessToken &&
    row.accessTokenExpiresAt &&
    row.refreshToken &&
    row.refreshTokenExpiresAt
      ? {
          AccessToken: row.accessToken,
          AccessTokenExpirationDateTime: row.accessTokenExpiresAt.toISOString(),
          RefreshToken: row.refreshToken,
          RefreshTokenExpirationDateTime: row.refreshTokenExpiresAt.toISOString(),
        }
      : null;
  return {
    Data: {
      ConsentId: row.consentId,
      Status: row.status as ConsentResponse['Data']['Status'],
      StatusUpdateDateTime: row.statusUpdateDateTime.toISOString(),
      CreationDateTime: row.creationDateTime.toISOString(),
      Permissions: row.permissions,
      ExpirationDateTime: row.expirationDateTime.toISOString(),
      TransactionFromDateTime: iso(row.transactionFromDateTime),
      TransactionToDateTime: iso(row.transactionToDateTime),
      Purpose: row.purpose,
      Frequency: { Unit: 'DAY', Value: row.fetchesPerDay },
      DataLife: row.dataLifeDays === null ? null : { Unit: 'DAY', Value: row.dataLifeDays },
      Tokens: tokens,
    },
    Risk: {},
    Links: { Self: selfUrl },
    Meta: {},
  };
}

/**
 * A bank that speaks the account-access-consents contract, inside the portal's own server,
 * so the whole product runs with no outside account. Mounted only when the portal uses it.
 */
export function sandboxBankRoutes(options: SandboxBankOptions) {
  return async function plugin(app: App) {
    const { db, clock } = app.deps;
    options.route?.serve(app);

    // the sandbox page posts plain HTML forms
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    // the bank's own error format for whatever refuses a request; a failure is the portal's 5xx
    app.setErrorHandler((error: FastifyError, _request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const issue = error.validation[0]!;
        const field = issue.instancePath.slice(1).replaceAll('/', '.') || error.validationContext;
        return bankError(reply, 400, `${field}: ${issue.message}`);
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) return bankError(reply, status, error.message);
      throw error;
    });

    /** Client credentials by HTTP Basic authentication, as a bank's API gateway would ask. */
    function authenticateClient(request: FastifyRequest): string | null {
      const match = request.headers.authorization?.match(/^Basic\s+(\S+)$/i);
      if (!match) return null;
      const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return null;
      const id = decoded.slice(0, colon);
      const secret = decoded.slice(colon + 1);
      const ok = sameSecret(id, options.clientId) && sameSecret(secret, options.clientSecret);
      return ok ? id : null;
    }

    /** The client's own consent named in the path, or null once the refusal is sent. */
    async function clientConsent(
      request: FastifyRequest<{ Params: { consentId: string } }>,
      reply: FastifyReply,
    ) {
      const row = await findBankConsent(db, request.params.consentId);
      if (row && row.clientId === options.clientId) return row;
      await bankError(reply, 404, 'Consent not found');
      return null;
    }

    /** A token sent along must be the one issued for this consent. */
    function foreignToken(request: FastifyRequest, row: SandboxBankConsent) {
      const held = request.headers[CONSENT_ACCESS_TOKEN_HEADER];
      return (
        typeof held === 'string' && row.accessToken !== null && !sameSecret(held, row.accessToken)
      );
    }

    const selfUrl = (consentId: string) =>
      `${SANDBOX_BANK_PREFIX}/account-access-consents/${encodeURIComponent(consentId)}`;

    const hidden = { schema: { hide: true } };
    // the client is known before its request is read, so that a stranger learns nothing of it
    const client = {
      onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
        if (!authenticateClient(request))
          return bankError(reply, 401, 'Client authentication failed');
      },
    };
    // the page lists and decides every consent, so it takes the same credentials as the API
    const signedIn = {
      ...hidden,
      onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
        if (authenticateClient(request)) return;
        return reply
          .code(401)
          .header('www-authenticate', 'Basic realm="Sandbox Bank", charset="UTF-8"')
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(SANDBOX_BANK_SIGN_IN);
      },
    };

    const createOptions = { ...client, schema: { hide: true, body: CreateConsentBodySchema } };
    app.post('/account-access-consents', createOptions, async (request, reply) => {
      const data = request.body.Data;
      const date = (value: string | undefined) => (value ? new Date(value) : undefined);
      try {
        const row = await createBankConsent(db, clock, {
          clientId: options.clientId,
          permissions: data.Permissions,
          expirationDateTime: date(data.ExpirationDateTime),
          transactionFromDateTime: date(data.TransactionFromDateTime),
          transactionToDateTime: date(data.TransactionToDateTime),
          purpose: data.Purpose,
          fetchesPerDay: data.Frequency?.Value,
          dataLifeDays: data.DataLife?.Value,
        });
        return reply.code(201).send(toWire(row, selfUrl(row.consentId)));
      } catch (error) {
        if (error instanceof SandboxBankError) return bankError(reply, error.status, error.message);
        throw error;
      }
    });

    app.get<{ Params: { consentId: string } }>(
      '/account-access-consents/:consentId',
      { ...hidden, ...client },
      async (request, reply) => {
        const row = await clientConsent(request, reply);
        if (!row) return reply;
        if (foreignToken(request, row)) {
          return bankError(reply, 401, 'The access token does not belong to this consent');
        }
        return reply.send(toWire(row, selfUrl(row.consentId)));
      },
    );

    // The client pauses or resumes the consent (decision 077).
    const statusOptions = { ...client, schema: { hide: true, body: StatusChangeBodySchema } };
    app.patch<{ Params: { consentId: string }; Body: StatusChangeBody }>(
      '/account-access-consents/:consentId',
      statusOptions,
      async (request, reply) => {
        const row = await clientConsent(request, reply);
        if (!row) return reply;
        try {
          const changed = await setBankConsentStatus(
            db,
            clock,
            row.consentId,
            request.body.Data.Status,
          );
          return reply.send(toWire(changed, selfUrl(changed.consentId)));
        } catch (error) {
          if (error instanceof SandboxBankError)
            return bankError(reply, error.status, error.message);
          throw error;
        }
      },
    );

    // The client reads data under the consent: the bank applies its terms and records the read.
    const readOptions = { ...client, schema: { hide: true, querystring: ReadQuerySchema } };
    for (const resource of [
      'accounts',
      'transactions',
    ] as const satisfies readonly BankResource[]) {
      app.get<{
        Params: { consentId: string };
        Querystring: ReadQuery;
      }>(`/account-access-consents/:consentId/${resource}`, readOptions, async (request, reply) => {
        const row = await clientConsent(request, reply);
        if (!row) return reply;
        if (foreignToken(request, row)) {
          return bankError(reply, 401, 'The access token does not belong to this consent');
        }
        const { fromBookingDateTime: from, toBookingDateTime: to } = request.query;
        let read: BankRead;
        try {
          read = await readAtBank(db, clock, {
            consentId: row.consentId,
            resource,
            ...(from ? { from: new Date(from) } : {}),
            ...(to ? { to: new Date(to) } : {}),
          });
        } catch (error) {
          if (error instanceof SandboxBankError) {
            return bankError(reply, error.status, error.message);
          }
          throw error;
        }
        if (read.outcome !== 'Allowed') {
          const refusal = REFUSED[read.outcome];
          return bankError(reply, refusal.status, refusal.message(read), refusal.code);
        }
        const answer: ReadResponse = {
          Data: {
            ConsentId: row.consentId,
            ...(read.period
              ? { Transaction: sandboxTransactions(row.consentId, read.period) }
              : {}),
          },
          Meta: {
            Access: {
              AccessId: read.accessId,
              AccessDateTime: read.accessedAt.toISOString(),
              Resource: resource,
              FetchesLeftToday: read.fetchesLeftToday,
            },
          },
        };
        return reply.send(answer);
      });
    }

    app.delete<{ Params: { consentId: string } }>(
      '/account-access-consents/:consentId',
      { ...hidden, ...client },
      async (request, reply) => {
        const row = await clientConsent(request, reply);
        if (!row) return reply;
        await revokeBankConsent(db, clock, row.consentId);
        return reply.code(204).send();
      },
    );

    // The customer's side of the bank: a page to decide on pending consents.
    app.get<{ Querystring: { result?: string; consent?: string } }>(
      '/',
      signedIn,
      async (request, reply) => {
        const rows = await listBankConsents(db);
        const reads = await summariseBankReads(
          db,
          rows.map((row) => row.consentId),
        );
        const { result, consent } = request.query;
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(
            renderSandboxBankPage(rows, reads, clock.now(), {
              result: typeof result === 'string' ? result : undefined,
              consent: typeof consent === 'string' ? consent : undefined,
            }),
          );
      },
    );

    for (const decision of ['authorise', 'reject'] as const) {
      app.post<{ Params: { consentId: string } }>(
        `/consents/:consentId/${decision}`,
        signedIn,
        async (request, reply) => {
          const { consentId } = request.params;
          if (!isBankConsentId(consentId)) {
            return reply.code(404).type('text/plain; charset=utf-8').send('No such consent.');
          }
          let result: string;
          try {
            if (decision === 'authorise') await authoriseBankConsent(db, clock, consentId);
            else await rejectBankConsent(db, clock, consentId);
            result = decision === 'authorise' ? 'authorised' : 'rejected';
          } catch (error) {
            if (!(error instanceof SandboxBankError)) throw error;
            result = error.status === 404 ? 'missing' : 'decided';
          }
          const query = new URLSearchParams({ result, consent: consentId });
          return reply.redirect(`${SANDBOX_BANK_PREFIX}?${query}`, 303);
        },
      );
    }
  };
}
