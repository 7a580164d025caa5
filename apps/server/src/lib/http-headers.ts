import type { FastifyInstance } from 'fastify';

/**
 * API answers are personal (a profile, orders, consents) or about this moment (errors, 503s):
 * no browser or proxy may keep them. A route that chooses its own Cache-Control keeps it.
 */
export function registerNoStoreForApi(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
  });
}
