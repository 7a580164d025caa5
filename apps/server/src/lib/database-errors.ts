import { DrizzleQueryError } from 'drizzle-orm';

/** Socket failures: the database host refused, dropped or never answered the connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATE: the server is shutting down (admin, crash) or still starting. */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);
/** SQLSTATE class 08 is "connection exception". */
const CONNECTION_EXCEPTION = /^08[0-9A-Z]{3}$/;

/** node-postgres and PGlite say a lost or unobtainable connection in words, without a code. */
const CONNECTION_MESSAGES = [
  'Connection terminated', // "… unexpectedly", "… due to connection timeout"
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'PGlite is closed',
];

/** The error, the errors it wraps (Drizzle puts the driver's error in `cause`), bounded. */
function* chainOf(error: unknown, depth = 0): Generator<Error> {
  if (!(error instanceof Error) || depth > 8) return;
  yield error;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) yield* chainOf(inner, depth + 1);
  }
  yield* chainOf(error.cause, depth + 1);
}

/**
 * True when the database could not be reached or dropped the connection: a state that passes
 * (a restart, a failover), as opposed to a query the database refused.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of chainOf(error)) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || SHUTDOWN_STATES.has(code) || CONNECTION_EXCEPTION.test(code)) {
        return true;
      }
    }
    if (CONNECTION_MESSAGES.some((text) => link.message.startsWith(text))) return true;
  }
  return false;
}

/** The SQL text with its string literals blanked: values travel as parameters, but not always. */
export function sqlWithoutValues(query: string): string {
  return query.replace(/'(?:[^']|'')*'/g, "'?'");
}

const EMAIL = /[^\s@<>"'(),;:]+@[^\s@<>"'(),;:]+\.[a-z]{2,}/gi;

/**
 * A text fit for the log: a Drizzle failure message loses its parameters (quoted into another
 * error's message, too) and e-mail addresses are masked.
 */
export function scrubLogText(text: string): string {
  return text.replace(/\s*\bparams: [\s\S]*$/, '').replace(EMAIL, '[email]');
}

/** Fields of driver errors that name things, never values (pg's `detail` quotes the row). */
const KEPT_FIELDS = [
  'code',
  'statusCode',
  'severity',
  'schema',
  'table',
  'column',
  'constraint',
  'routine',
  'syscall',
] as const;

function messageOf(error: Error): string {
  if (error instanceof DrizzleQueryError) {
    return `Failed query: ${sqlWithoutValues(error.query)}`;
  }
  const code = (error as { code?: unknown }).code;
  // data exceptions (class 22) end with the offending value: 'invalid input syntax for type uuid: "…"'
  const message =
    typeof code === 'string' && code.startsWith('22')
      ? error.message.split(':')[0]!
      : error.message;
  return scrubLogText(message);
}

export interface LoggedError {
  type: string;
  message: string;
  stack: string;
  [field: string]: unknown;
}

/**
 * An error as the log may carry it: type, message, stack frames, codes and causes, with a
 * failed query's SQL text but never its parameters, and no other field (they may hold rows).
 */
export function loggableError(error: Error, depth = 0): LoggedError {
  const type = error.constructor?.name || error.name;
  const message = messageOf(error);
  const framesAt = error.stack?.search(/^\s+at /m) ?? -1;
  const frames = framesAt >= 0 ? error.stack!.slice(framesAt) : '';
  const out: LoggedError = {
    type,
    message,
    stack: frames ? `${type}: ${message}\n${frames}` : `${type}: ${message}`,
  };
  for (const field of KEPT_FIELDS) {
    const kept = (error as unknown as Record<string, unknown>)[field];
    if (typeof kept === 'string' || typeof kept === 'number') out[field] = kept;
  }
  if (depth < 8) {
    if (error instanceof AggregateError) {
      out.errors = error.errors.map((inner: unknown) => loggableValue(inner, depth + 1));
    }
    if (error.cause !== undefined) out.cause = loggableValue(error.cause, depth + 1);
  }
  return out;
}

/** What was logged in an error's place: an Error, or its message as a string. */
export function loggableValue(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return loggableError(value, depth);
  return typeof value === 'string' ? scrubLogText(value) : value;
}
