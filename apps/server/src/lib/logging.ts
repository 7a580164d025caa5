import type { FastifyServerOptions } from 'fastify';

/** Query parameters that carry secrets (reset tokens, signed-link signatures). */
const SECRET_QUERY_PARAMS = /([?&](?:token|sig|signature|expires_sig|code)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, '$1[REDACTED]');
}

const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.verificationCode',
  '*.code',
  '*.token',
  '*.tempToken',
  '*.refreshToken',
  '*.accessToken',
  '*.apiKey',
  '*.secret',
];

/** Pino options for the app; `stream` replaces standard output (tests read what is logged). */
export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
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
    },
  };
}
