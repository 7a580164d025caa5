import { vi } from 'vitest';
import { jsonResponse } from './data';

export type Route = (init: RequestInit | undefined) => Response | Promise<Response>;

/**
 * Answers fetch by method and path, as `'GET /api/plans'`, and notes each call with its JSON
 * body. A call without a route is answered 404, so that a screen's error state shows it.
 */
export function serve(routes: Record<string, Route>) {
  const calls: { key: string; body: unknown }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const route = routes[key];
    return route ? route(init) : jsonResponse(404, { success: false, message: `No route ${key}` });
  });
  return calls;
}
