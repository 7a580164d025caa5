import type { FastifyError, FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { loggableValue, scrubLogText, type LoggedError } from './database-errors';

/**
 * Names of query parameters that carry secrets, by how they end: reset tokens, signed-link and
 * gateway signatures (`sig`, `razorpay_signature`, S3's `X-Amz-Signature`), codes, keys.
 */
const SECRET_PARAM_NAME = /(?:sig|signature|token|secret|hmac|password|code|otp|credential|key)$/i;

export function redactUrl(url: string): string {
  return url.replace(/([?&])([^=&#]+)=([^&#]*)/g, (whole, separator: string, name: string) =>
    SECRET_PARAM_NAME.test(name) ? `${separator}${name}=[REDACTED]` : whole,
  );
}

/** Keys whose values are secret or personal, at the top of a log line or one level down. */
const REDACTED_KEYS = [
  'password',
  'newPassword',
  'currentPassword',
  'verificationCode',
  'token',
  'tempToken',
  'refreshToken',
  'accessToken',
  'apiKey',
  'secret',
  'sessionId',
  'email',
  'mobile',
  'gstNo',
  'customer_email',
  'customer_phone',
  'INVOICE_SIGNING_P12_PASSWORD',
];

const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...REDACTED_KEYS.flatMap((key) => [key, `*.${key}`]),
];

/**
 * Where the running server logs: standard output (or `dest`, a file), written asynchronously in
 * the background so that no request waits for the pipe. Lines still buffered when the process
 * ends are lost unless `flushSync()` runs first: main.ts calls it on shutdown.
 */
export function asyncLogDestination(dest: number | string = 1) {
  return pino.destination({ dest, sync: false });
}

/** Pino options for the app; `stream` replaces standard output (tests read what is logged). */
export function loggerOptions(
  level: string,
  stream?: DestinationStream,
): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    serializers: {
      req: (request) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
      }),
      // errors are logged under these names, as Error objects or as their messages
      err: loggableValue as (error: FastifyError) => LoggedError,
      error: loggableValue,
      reason: loggableValue,
    },
    hooks: {
      // a message built from an error's text gets the same treatment as the error
      logMethod(args, method) {
        const scrubbed = args.map((arg: unknown) =>
          typeof arg === 'string' ? scrubLogText(arg) : arg,
        ) as Parameters<typeof method>;
        method.apply(this, scrubbed);
      },
    },
  };
}
