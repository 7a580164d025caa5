import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { z } from 'zod';
import { ApiError, SessionEndedError, api, errorMessage } from './http';
import { nextTask } from './next-task';
import { useSessionStore } from './session-store';
import { jsonResponse, testUser } from '@/test/data';

const toastError = vi.hoisted(() => vi.fn());
vi.mock('sonner', () => ({ toast: { error: toastError, success: vi.fn() } }));

const user = testUser({ created_at: '2026-01-15T10:00:00.000Z' });

const expired = () =>
  jsonResponse(401, { success: false, message: 'jwt expired', error: 'jwt expired' });

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;
let fetchMock: MockInstance<typeof fetch>;
/** No test here needs more calls; a client that loops fails fast instead of filling memory. */
const MAX_FETCH_CALLS = 10;
const calls = () =>
  fetchMock.mock.calls.map(([url, init]) => ({
    url: String(url),
    auth: new Headers((init as RequestInit).headers).get('authorization'),
  }));
function serve(handler: Handler) {
  fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
    if (fetchMock.mock.calls.length > MAX_FETCH_CALLS) {
      throw new Error(`fetch called more than ${MAX_FETCH_CALLS} times`);
    }
    return handler(String(url), init ?? {});
  });
}
const bearer = (init: RequestInit) => new Headers(init.headers).get('authorization');

beforeEach(() => {
  useSessionStore.getState().completeVerification('old-token', user);
  toastError.mockClear();
});
afterEach(() => {
  // restores only fetch: the console.error guard of the test setup must stay
  if (vi.isMockFunction(globalThis.fetch)) vi.mocked(globalThis.fetch).mockRestore();
});

describe('api client', () => {
  it('sends the stored token as a bearer credential and JSON bodies', async () => {
    serve(() => jsonResponse(200, { success: true, message: 'ok' }));
    await api.post('/api/things', { a: 1 });
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    const headers = new Headers(init.headers);
    expect(headers.get('authorization')).toBe('Bearer old-token');
    expect(headers.get('content-type')).toBe('application/json');
    expect(init.body).toBe('{"a":1}');
  });

  it('refreshes once on an expired token and retries the request with the new token', async () => {
    serve((url, init) => {
      if (url === '/api/auth/refresh-token')
        return jsonResponse(200, { success: true, token: 'new-token' });
      return bearer(init) === 'Bearer new-token' ? jsonResponse(200, { value: 42 }) : expired();
    });
    await expect(api.get('/api/things')).resolves.toEqual({ value: 42 });
    expect(calls().map((c) => c.url)).toEqual([
      '/api/things',
      '/api/auth/refresh-token',
      '/api/things',
    ]);
    const state = useSessionStore.getState();
    expect(state.token).toBe('new-token');
    // a refresh replaces only the token
    expect(state.user?.company_name).toBe('Acme Traders Pvt Ltd');
    expect(state.isAuthenticated).toBe(true);
    expect(toastError).not.toHaveBeenCalled();
  });

  it('queues requests that fail during a refresh and retries them all after one refresh', async () => {
    let releaseRefresh: () => void = () => {};
    const refreshGate = new Promise<void>((resolve) => (releaseRefresh = resolve));
    serve(async (url, init) => {
      if (url === '/api/auth/refresh-token') {
        await refreshGate;
        return jsonResponse(200, { success: true, token: 'new-token' });
      }
      return bearer(init) === 'Bearer new-token' ? jsonResponse(200, { path: url }) : expired();
    });
    const pending = Promise.all([api.get('/api/a'), api.get('/api/b'), api.get('/api/c')]);
    await vi.waitFor(() =>
      expect(calls().filter((c) => c.url === '/api/auth/refresh-token')).toHaveLength(1),
    );
    releaseRefresh();
    await expect(pending).resolves.toEqual([
      { path: '/api/a' },
      { path: '/api/b' },
      { path: '/api/c' },
    ]);
    expect(calls().filter((c) => c.url === '/api/auth/refresh-token')).toHaveLength(1);
  });

  it('retries without a second refresh when another request already renewed the token', async () => {
    let slowStarted = false;
    let releaseSlow: () => void = () => {};
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    serve(async (url, init) => {
      if (url === '/api/auth/refresh-token')
        return jsonResponse(200, { success: true, token: 'new-token' });
      if (bearer(init) === 'Bearer new-token') return jsonResponse(200, { path: url });
      if (url === '/api/slow') {
        slowStarted = true;
        await slowGate;
      }
      return expired();
    });
    const slow = api.get('/api/slow');
    await vi.waitFor(() => expect(slowStarted).toBe(true));
    await expect(api.get('/api/fast')).resolves.toEqual({ path: '/api/fast' });
    releaseSlow();
    await expect(slow).resolves.toEqual({ path: '/api/slow' });
    expect(calls().filter((c) => c.url === '/api/auth/refresh-token')).toHaveLength(1);
  });

  it('ends the session with the server message when the refresh call answers 401', async () => {
    serve((url) =>
      url === '/api/auth/refresh-token'
        ? jsonResponse(401, { success: false, message: 'Session revoked' })
        : expired(),
    );
    await expect(api.get('/api/things')).rejects.toBeInstanceOf(SessionEndedError);
    expect(useSessionStore.getState()).toMatchObject({
      token: null,
      user: null,
      isAuthenticated: false,
    });
    await vi.waitFor(() => expect(toastError).toHaveBeenCalledTimes(1));
    await vi.waitFor(() =>
      expect(toastError).toHaveBeenCalledWith(
        'Session revoked',
        expect.objectContaining({ id: 'session-ended' }),
      ),
    );
  });

  it("falls back to 'Session expired. Please log in again.' when the refused refresh has no message", async () => {
    serve((url) => (url === '/api/auth/refresh-token' ? jsonResponse(401, {}) : expired()));
    await expect(api.get('/api/things')).rejects.toBeInstanceOf(SessionEndedError);
    await vi.waitFor(() =>
      expect(toastError).toHaveBeenCalledWith(
        'Session expired. Please log in again.',
        expect.objectContaining({ id: 'session-ended' }),
      ),
    );
  });

  it('ends the session when the refresh fails for another reason', async () => {
    serve((url) => {
      if (url === '/api/auth/refresh-token') throw new TypeError('Failed to fetch');
      return expired();
    });
    const error = await api.get('/api/things').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionEndedError);
    expect(errorMessage(error, 'Failed to load')).toBe(
      'Your session has expired. Please log in again.',
    );
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
    await vi.waitFor(() => expect(toastError).toHaveBeenCalledTimes(1));
    await vi.waitFor(() =>
      expect(toastError).toHaveBeenCalledWith(
        'Your session has expired. Please log in again.',
        expect.objectContaining({ id: 'session-ended' }),
      ),
    );
  });

  it('keeps the session when the page is being left as the refresh fails, and ends it again once back', async () => {
    serve((url) => {
      if (url === '/api/auth/refresh-token') throw new TypeError('Failed to fetch');
      return expired();
    });
    // a link followed before the app took the page over: the browser cuts the refresh off
    window.dispatchEvent(new Event('pagehide'));
    try {
      const error = await api.get('/api/things').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionEndedError);
      expect(useSessionStore.getState()).toMatchObject({
        isAuthenticated: true,
        token: 'old-token',
      });
      expect(toastError).not.toHaveBeenCalled();
    } finally {
      window.dispatchEvent(new Event('pageshow'));
    }
    await api.get('/api/things').catch(() => undefined);
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
  });

  it('retries a request at most once after a 401', async () => {
    serve((url) =>
      url === '/api/auth/refresh-token'
        ? jsonResponse(200, { success: true, token: 'new-token' })
        : expired(),
    );
    await expect(api.get('/api/things')).rejects.toBeInstanceOf(SessionEndedError);
    expect(calls().map((c) => c.url)).toEqual([
      '/api/things',
      '/api/auth/refresh-token',
      '/api/things',
    ]);
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
  });

  it("logs out when a success body carries the error 'jwt expired'", async () => {
    serve(() => jsonResponse(200, { success: true, error: 'jwt expired' }));
    await expect(api.get('/api/things')).rejects.toBeInstanceOf(SessionEndedError);
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.waitFor(() =>
      expect(toastError).toHaveBeenCalledWith(
        'Your session has expired. Please log in again.',
        expect.objectContaining({ id: 'session-ended' }),
      ),
    );
  });

  it('ends the session on any other 401 with the server message or the fallback', async () => {
    serve(() => jsonResponse(401, { success: false, message: 'Account disabled' }));
    await expect(api.get('/api/things')).rejects.toThrow('Account disabled');
    expect(useSessionStore.getState().isAuthenticated).toBe(false);
    await vi.waitFor(() =>
      expect(toastError).toHaveBeenCalledWith('Account disabled', expect.anything()),
    );

    useSessionStore.getState().completeVerification('another-token', user);
    toastError.mockClear();
    fetchMock.mockImplementation(async () => jsonResponse(401, {}));
    await expect(api.get('/api/things')).rejects.toThrow('Unauthorized access. Please log in.');
    await vi.waitFor(() =>
      expect(toastError).toHaveBeenCalledWith(
        'Unauthorized access. Please log in.',
        expect.objectContaining({ id: 'session-ended' }),
      ),
    );
  });

  it('passes a 401 of a call made without a token through (a failed login)', async () => {
    useSessionStore.getState().clearSession();
    serve(() => jsonResponse(401, { success: false, message: 'Invalid credentials' }));
    const error = await api.post('/api/auth/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(SessionEndedError);
    expect(errorMessage(error, 'Login failed')).toBe('Invalid credentials');
    expect(toastError).not.toHaveBeenCalled();
  });

  it('passes other errors through with the server message, or the fallback without one', async () => {
    serve(() => jsonResponse(400, { success: false, message: 'Current password is incorrect' }));
    const error = await api.put('/api/users/c1', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400 });
    expect(errorMessage(error, 'Failed to change password')).toBe('Current password is incorrect');
    expect(useSessionStore.getState().isAuthenticated).toBe(true);

    fetchMock.mockImplementation(async () => new Response('oops', { status: 500 }));
    const bare = await api.get('/api/things').catch((e: unknown) => e);
    expect(errorMessage(bare, 'Failed to load')).toBe('Failed to load');
  });

  it("rejects an answer that does not match the schema as 'Unexpected response'", async () => {
    serve(() => jsonResponse(200, { success: true, message: 'Fetched' }));
    const error = await api
      .get('/api/things', { schema: async () => z.object({ data: z.string() }) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Unexpected response');
    expect(errorMessage(error, 'Failed to load')).toBe('Failed to load');
  });

  it('sends the request first, then asks for the schema a task later, while the answer is on its way', async () => {
    let schemaAskedWhenSent: number | undefined;
    let answer!: (response: Response) => void;
    const schema = vi.fn(async () => z.object({ value: z.number() }));
    serve(() => {
      schemaAskedWhenSent = schema.mock.calls.length;
      return new Promise<Response>((resolve) => (answer = resolve));
    });
    const call = api.get('/api/things', { schema });
    expect(schemaAskedWhenSent).toBe(0);
    expect(schema).not.toHaveBeenCalled();
    await nextTask();
    expect(schema).toHaveBeenCalledTimes(1);
    answer(jsonResponse(200, { value: 42 }));
    await expect(call).resolves.toEqual({ value: 42 });
    expect(schema).toHaveBeenCalledTimes(1);
  });

  it('fails a call whose schema cannot load, and a failed call does not wait for it', async () => {
    const unreachable = () => Promise.reject(new TypeError('Failed to fetch module'));
    serve(() => jsonResponse(200, { value: 42 }));
    await expect(api.get('/api/things', { schema: unreachable })).rejects.toThrow(
      'Failed to fetch module',
    );
    // the schema's failed loading is not left unhandled when the request fails first
    fetchMock.mockImplementation(async () => jsonResponse(404, { message: 'Not found' }));
    const error = await api.get('/api/things', { schema: unreachable }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
  });
});
