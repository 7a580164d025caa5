import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from './database-errors';
import { AppError } from './errors';

/** How long a client should wait after a 503: a database restart or failover takes about this. */
export const RETRY_AFTER_SECONDS = 5;
export const UNAVAILABLE_MESSAGE =
  'The service is briefly unavailable. Please try again in a moment.';
/** Fastify's own refusals of a body, before any route sees it (app.ts sets the limit). */
export const BODY_TOO_LARGE_MESSAGE = 'Request body is too large';
export const UNSUPPORTED_MEDIA_TYPE_MESSAGE = 'Unsupported content type';
export const INVALID_JSON_MESSAGE = 'Request body is not valid JSON';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const first = issues[0];
  if (!first) return 'Invalid request';
  const fieldPath =
    first.params?.issue?.path?.map(String).join('.') ||
    first.instancePath?.replace(/^\//, '').replace(/\//g, '.');
  const field = fieldPath || context || 'request';
  return `${field}: ${first.message ?? 'is invalid'}`;
}

/** The router's own refusals (Fastify's frameworkErrors) in the portal's error shape. */
export function answerRouterRefusal(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  return reply.code(error.statusCode ?? 400).send({
    success: false,
    message:
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A value in the address is too long'
        : 'The address is not a valid URL',
  });
}

/**
 * The one error handler: what a client sent wrong is a 4xx with a message that names it; a
 * database that cannot be reached is a 503 the client may retry; anything else is logged with
 * the request id and answered without details.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      const retryAfter =
        error.retryAfterSeconds ?? (error.statusCode === 503 ? RETRY_AFTER_SECONDS : undefined);
      if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
      if (error.statusCode >= 500) request.log.warn({ err: error }, error.message);
      return reply.code(error.statusCode).send({
        success: false,
        message: error.message,
        ...(error.error ? { error: error.error } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({
        success: false,
        message: describeValidation(error.validationContext, error.validation as ValidationIssue[]),
        error: 'validation',
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? INVALID_JSON_MESSAGE
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? BODY_TOO_LARGE_MESSAGE
            : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? UNSUPPORTED_MEDIA_TYPE_MESSAGE
              : error.message;
      return reply.code(status).send({ success: false, message });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unreachable');
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ success: false, message: UNAVAILABLE_MESSAGE });
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .send({ success: false, message: 'Something went wrong. Please try again.' });
  });
}
