import { toast } from 'sonner';
import type { z } from 'zod';
import { JWT_EXPIRED, RefreshTokenResponseSchema, authPaths } from '@portal/contract';
import { useSessionStore } from './session-store';

/** A failed call: the HTTP status and the server's message (or a fallback). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RequestOptions<T> {
  body?: unknown;
  /** Validates the answer; a mismatch is an error, not a silent cast. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
}

const messageOf = (body: unknown): string | undefined => {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : undefined;
};
const errorOf = (body: unknown) => (body as { error?: unknown } | null)?.error;

async function send(method: Method, path: string, body: unknown, signal?: AbortSignal) {
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
  return { response, body: parsed, hadToken: Boolean(token) };
}

function endSession(message: string) {
  useSessionStore.getState().clearSession();
  toast.error(message, { position: 'top-center' });
}

let refreshing: Promise<boolean> | null = null;

/** One refresh at a time; every request that meets an expired token waits for it. */
export function refreshAccessToken(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const { response, body } = await send('POST', authPaths.refreshToken, undefined);
      const parsed = RefreshTokenResponseSchema.safeParse(body);
      if (!response.ok || !parsed.success) {
        if (response.status === 401) {
          endSession(messageOf(body) ?? 'Session expired. Please log in again.');
        }
        return false;
      }
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

async function request<T>(
  method: Method,
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  let attempt = await send(method, path, options.body, options.signal);

  if (attempt.hadToken && errorOf(attempt.body) === JWT_EXPIRED) {
    if (attempt.response.status === 401 && (await refreshAccessToken())) {
      // retried at most once
      attempt = await send(method, path, options.body, options.signal);
    } else {
      if (useSessionStore.getState().isAuthenticated) {
        endSession('Your session has expired. Please log in again.');
      }
      throw new ApiError(401, 'Your session has expired. Please log in again.', attempt.body);
    }
  }

  const { response, body } = attempt;
  if (errorOf(body) === JWT_EXPIRED) {
    // even on a success status (spec §7)
    endSession('Your session has expired. Please log in again.');
    throw new ApiError(401, 'Your session has expired. Please log in again.', body);
  }
  if (response.status === 401 && attempt.hadToken) {
    const message = messageOf(body) ?? 'Unauthorized access. Please log in.';
    endSession(message);
    throw new ApiError(401, message, body);
  }
  if (!response.ok) {
    throw new ApiError(response.status, messageOf(body) ?? response.statusText, body);
  }
  if (!options.schema) return body as T;
  const parsed = options.schema.safeParse(body);
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
  delete: <T>(path: string, options?: Omit<RequestOptions<T>, 'body'>) =>
    request('DELETE', path, options),
};

/** The message to show for a failed call: the server's, or the screen's fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message && error.message !== 'Unexpected response') {
    return error.message;
  }
  return fallback;
}
