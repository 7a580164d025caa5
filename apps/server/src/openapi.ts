import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorResponseSchema } from '@portal/contract';
import type { Config } from './config';
import {
  BODY_TOO_LARGE_MESSAGE,
  RETRY_AFTER_SECONDS,
  UNAVAILABLE_MESSAGE,
  UNSUPPORTED_MEDIA_TYPE_MESSAGE,
} from './lib/http-errors';
import { REFRESH_COOKIE } from './modules/auth/routes';

/**
 * Operations that take no bearer token or partner key, each with what stands in for one. Every
 * other operation declares its security on its route; one that does neither is left without, and
 * `npm run lint:api` (Redocly's security-defined rule) refuses the document until it is decided.
 */
const OPEN_OPERATIONS: Record<string, { security: Record<string, string[]>[]; why: string }> = {
  'POST /api/auth/login': { security: [], why: 'the password step: no session yet' },
  'POST /api/auth/verify-2fa': {
    security: [],
    why: 'the code step: the temporary token is in the body',
  },
  'POST /api/auth/resend-verification': { security: [], why: 'the temporary token is in the body' },
  'POST /api/auth/code-mail-status': { security: [], why: 'the temporary token is in the body' },
  'POST /api/auth/refresh-token': { security: [{ refreshCookie: [] }], why: 'the refresh cookie' },
  'POST /api/auth/logout': { security: [{ refreshCookie: [] }], why: 'the refresh cookie' },
  'POST /api/users/forgot-password': { security: [], why: 'for someone who cannot sign in' },
  'POST /api/users/reset-password': { security: [], why: 'the reset token is in the body' },
  'GET /api/plugins/{id}/download': { security: [], why: 'a short-lived signed link' },
  'GET /api/orders/{id}/receipt': { security: [], why: 'a short-lived signed link' },
  'GET /api/payments/callback': { security: [], why: "the gateway's signature in the query" },
  'POST /api/payments/webhook': {
    security: [],
    why: 'an HMAC of the body in X-Razorpay-Signature, which no security scheme describes',
  },
  'GET /api/health': { security: [], why: 'for load balancers and monitors' },
  'GET /api/health/live': { security: [], why: 'for load balancers and monitors' },
  'GET /api/health/ready': { security: [], why: 'for load balancers and monitors' },
};

/** Operations that answer without the database, so never with its outage's 503. */
const WITHOUT_DATABASE = new Set(['GET /api/health/live']);

/** An answer of the error handler (lib/http-errors.ts), with the message it gives. */
const errorAnswer = (description: string) => ({
  description,
  content: {
    'application/json': { schema: z.toJSONSchema(ErrorResponseSchema, { target: 'openapi-3.0' }) },
  },
});

const DATABASE_OUTAGE = {
  ...errorAnswer(`The database cannot be reached for a moment: "${UNAVAILABLE_MESSAGE}"`),
  headers: {
    'Retry-After': {
      description: `Seconds to wait before trying again (${RETRY_AFTER_SECONDS})`,
      schema: { type: 'integer' },
    },
  },
};
const BODY_TOO_LARGE = errorAnswer(`The body is over the limit: "${BODY_TOO_LARGE_MESSAGE}"`);
const UNSUPPORTED_MEDIA_TYPE = errorAnswer(
  `The body is not of a type the operation reads: "${UNSUPPORTED_MEDIA_TYPE_MESSAGE}"`,
);

/** `POST /api/orders/{id}/check-status` → `postOrdersByIdCheckStatus`: stable, and unique. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split(/[/-]/)
    .filter(Boolean)
    .flatMap((part) => (part.startsWith('{') ? ['by', part.slice(1, -1)] : [part]));
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

interface Operation {
  operationId?: string;
  description?: string;
  requestBody?: unknown;
  security?: unknown[];
  responses?: Record<string, unknown>;
}

type Document = {
  servers?: { url: string; description?: string }[];
  paths?: Record<string, Record<string, Operation>>;
} & Record<string, unknown>;

/** The document as served: what routes declare, completed by what holds for all of them. */
function complete(document: Document, publicUrl: string): Document {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      const key = `${method.toUpperCase()} ${path}`;
      operation.operationId ??= operationIdOf(method, path);
      const open = OPEN_OPERATIONS[key];
      if (open && !operation.security) {
        operation.security = open.security;
        operation.description ??= `No bearer token: ${open.why}.`;
      }
      operation.responses = { ...operation.responses };
      if (!WITHOUT_DATABASE.has(key)) operation.responses['503'] ??= DATABASE_OUTAGE;
      // Fastify refuses such a body before the route's own code runs
      if (operation.requestBody !== undefined) {
        operation.responses['413'] ??= BODY_TOO_LARGE;
        operation.responses['415'] ??= UNSUPPORTED_MEDIA_TYPE;
      }
    }
  }
  return { ...document, servers: [{ url: publicUrl, description: 'This portal' }] };
}

/** @fastify/swagger's options: the document behind /api/docs. */
export function openApiOptions(config: Pick<Config, 'PUBLIC_URL'>): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      info: { title: 'Customer portal API', version: '1.0.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          partnerKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          refreshCookie: { type: 'apiKey', in: 'cookie', name: REFRESH_COOKIE },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (documents) =>
      complete(
        ('openapiObject' in documents
          ? documents.openapiObject
          : documents.swaggerObject) as Document,
        config.PUBLIC_URL,
      ),
  };
}
