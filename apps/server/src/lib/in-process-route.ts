import type { App } from './types';

/**
 * A `fetch` that hands each request to the app in memory (`app.inject`): the adapters' real
 * HTTP code reaches the sandboxes, and the sandbox gateway's webhooks reach the portal, with no
 * port, no address to get wrong, and no credentials on any network.
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

/** How the portal reaches a sandbox it serves itself; the sandbox calls `serve` when mounted. */
export interface InProcessRoute {
  fetch: typeof fetch;
  serve(app: App): void;
}

export function createInProcessRoute(name: string): InProcessRoute {
  let served: App | undefined;
  return {
    serve(app) {
      served = app;
    },
    fetch: injectFetch(() => {
      if (!served) throw new Error(`the ${name} is not mounted in this process`);
      return served;
    }),
  };
}
