import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { AggregatorRegistry, collectDefaultMetrics, type Registry } from 'prom-client';
import type { Config } from '../../config';

type MetricsSettings = Pick<Config, 'METRICS_HOST' | 'METRICS_PORT' | 'METRICS_TOKEN'>;

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Serves GET /metrics on its own address (METRICS_HOST:METRICS_PORT), never the portal's public
 * port; with METRICS_TOKEN set it also asks for `Authorization: Bearer <token>`. `read` answers
 * the text: one process's registry, or the primary's sum of its workers'.
 */
export async function serveMetrics(
  settings: MetricsSettings,
  read: () => Promise<{ contentType: string; text: string }>,
): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (settings.METRICS_TOKEN && !sameToken(given, settings.METRICS_TOKEN)) {
      response
        .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
        .end('A bearer token is required\n');
      return;
    }
    read().then(
      ({ contentType, text }) => response.writeHead(200, { 'content-type': contentType }).end(text),
      (error: Error) =>
        response
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`Metrics could not be read: ${error.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.METRICS_PORT, settings.METRICS_HOST, resolve);
  });
  return server;
}

/** One process's metrics, with the process's own (CPU, memory, event loop). */
export function processMetrics(registry: Registry) {
  collectDefaultMetrics({ register: registry });
  return async () => ({ contentType: registry.contentType, text: await registry.metrics() });
}

/**
 * The metrics of every worker of this primary, summed (or, for what each reads from the shared
 * database, the largest): each worker answers with `shareWithPrimary`'s registry.
 */
export function workersMetrics() {
  const aggregator = new AggregatorRegistry();
  return async () => ({
    contentType: aggregator.contentType,
    text: await (await aggregator.clusterMetrics()).toString(),
  });
}

/** In a worker: the registry the primary's `workersMetrics` asks for. */
export function shareWithPrimary(registry: Registry) {
  collectDefaultMetrics({ register: registry });
  AggregatorRegistry.setRegistries([registry]);
}
