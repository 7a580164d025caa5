import { toast } from '@/lib/toast';
import type { z } from 'zod';
import { JWT_EXPIRED, authPaths } from '@portal/contract';
import { nextTask } from './next-task';
import { responseSchema } from './response-schema';
import { useSessionStore } from './session-store';

/** A failed call: the HTTP status and the server's message (or a fallback). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
    /** From Retry-After: how long the server asks the client to wait (429, 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A call that ended the session (spec §8): the session notice has already been shown. */
export class SessionEndedError extends ApiError {
  constructor(message: string, body: unknown) {
    super(401, message, body);
    this.name = 'SessionEndedError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Loads the schema an answer is checked against (see lib/response-schema). A loader rather than
 * the schema itself, so that the screens' first load carries no zod: the schema's chunk is asked
 * for when the request is sent, and awaited only once the answer is in.
 */
export type SchemaLoader<T> = () => Promise<z.ZodType<T>>;

interface RequestOptions<T> {
  body?: unknown;
  /** Validates the answer; a mismatch is an error, not a silent cast. */
  schema?: SchemaLoader<T>;
  signal?: AbortSignal;
}

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please log in again.';
const REFRESH_REFUSED_MESSAGE = 'Session expired. Please log in again.';
const UNAUTHORIZED_MESSAGE = 'Unauthorized access. Please log in.';

const messageOf = (body: unknown): string | undefined => {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : undefined;
};
const isJwtExpired = (body: unknown) => (body as { error?: unknown } | null)?.error === JWT_EXPIRED;

interface Attempt {
  response: Response;
  body: unknown;
  /** The bearer token the request carried, if any. */
  sentToken: string | null;
}

async function send(
  method: Method,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<Attempt> {
  const token = useSessionStore.getState().token;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    signal,
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { response, body: parsed, sentToken: token };
}

/**
 * True once the browser is leaving this page (a link followed before the app took it over, a
 * reload): the requests and imports it cuts off then fail, and none of that is the server
 * refusing the session, which the next page goes on with. Back again from the back-forward
 * cache, the page is in use once more.
 */
let leavingPage = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => (leavingPage = true));
  window.addEventListener('pageshow', () => (leavingPage = false));
}

/**
 * Clears the client session and shows the session notice. The route guard then sends the
 * browser to /login. Only the first failure of a burst of requests shows a notice; a page being
 * left ends nothing.
 */
function endSession(message: string) {
  const { isAuthenticated, token, clearSession } = useSessionStore.getState();
  if (leavingPage || (!isAuthenticated && !token)) return;
  clearSession();
  toast.error(message, { id: 'session-ended' });
}

let refreshing: Promise<boolean> | null = null;

/** One refresh at a time; every request that meets an expired token waits for the same one. */
export function refreshAccessToken(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const { response, body } = await send('POST', authPaths.refreshToken, undefined);
      const parsed = (await responseSchema('RefreshTokenResponseSchema')()).safeParse(body);
      if (!response.ok || !parsed.success) {
        if (response.status === 401) endSession(messageOf(body) ?? REFRESH_REFUSED_MESSAGE);
        return false;
      }
      // a refresh replaces only the token (spec §4)
      useSessionStore.getState().setToken(parsed.data.token);
      return true;
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** A token newer than the one a request carried means another request already refreshed it. */
async function renewAfterExpiry(sentToken: string): Promise<boolean> {
  const current = useSessionStore.getState().token;
  if (current && current !== sentToken) return true;
  return refreshAccessToken();
}

async function request<T>(
  method: Method,
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  const sent = send(method, path, options.body, options.signal);
  // the schema is asked for a task after the request is on its way: starting its chunk (and the
  // preload of what it imports) in the same task would lengthen the task that sends the requests
  const schema = options.schema && nextTask().then(options.schema);
  // a request that fails needs no schema: its loading must not end as an unhandled rejection
  schema?.catch(() => undefined);
  let attempt = await sent;

  if (attempt.response.status === 401 && isJwtExpired(attempt.body) && attempt.sentToken) {
    if (!(await renewAfterExpiry(attempt.sentToken))) {
      endSession(SESSION_EXPIRED_MESSAGE);
      throw new SessionEndedError(SESSION_EXPIRED_MESSAGE, attempt.body);
    }
    // retried at most once: a second 401 below ends the session
    attempt = await send(method, path, options.body, options.signal);
  }

  const { response, body, sentToken } = attempt;
  if (isJwtExpired(body)) {
    // even on a success status (spec §7)
    endSession(SESSION_EXPIRED_MESSAGE);
    throw new SessionEndedError(SESSION_EXPIRED_MESSAGE, body);
  }
  if (response.status === 401 && sentToken) {
    const message = messageOf(body) ?? UNAUTHORIZED_MESSAGE;
    endSession(message);
    throw new SessionEndedError(message, body);
  }
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ApiError(
      response.status,
      messageOf(body) ?? response.statusText,
      body,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  if (!schema) return body as T;
  const parsed = (await schema).safeParse(body);
  if (!parsed.success) throw new ApiError(response.status, 'Unexpected response', body);
  return parsed.data;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions<T>, 'body'>) =>
    request('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>) =>
    request('POST', path, { ...options, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>) =>
    request('PUT', path, { ...options, body: body ?? {} }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>) =>
    request('PATCH', path, { ...options, body: body ?? {} }),
  delete: <T>(path: string, options?: Omit<RequestOptions<T>, 'body'>) =>
    request('DELETE', path, options),
};

/**
 * The message to show for a failed call: the server's own message when it sent one (or the
 * session notice for a call that ended the session), otherwise the screen's fallback.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof SessionEndedError) return error.message;
  // a success status with an unexpected body carries no error message to show
  if (error instanceof ApiError && error.status >= 400) return messageOf(error.body) ?? fallback;
  return fallback;
}
