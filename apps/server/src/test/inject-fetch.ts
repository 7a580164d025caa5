import type { App } from '../lib/types';

/**
 * A `fetch` that hands requests to the app in memory: tests reach the sandbox gateway and bank through the
 * adapters' real HTTP code without opening a port.
 */
export function injectFetch(getApp: () => App): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const response = await getApp().inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers.entries()),
      ...(payload ? { payload } : {}),
    });
    const status = response.statusCode;
    return new Response(status === 204 || status === 304 ? null : response.rawPayload, {
      status,
      headers: Object.entries(response.headers).flatMap(([name, value]) =>
        value === undefined ? [] : [[name, String(value)] as [string, string]],
      ),
    });
  };
}
