import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Begins `work` once the request's answer is sent, so that neither the answer nor its timing
     * tells what the work finds (whether an account exists, say). A failure is logged.
     */
    afterAnswer(request: FastifyRequest, work: () => Promise<void>): void;
    /** Resolves when every piece of work begun after an answer so far has ended. */
    answersSettled(): Promise<void>;
  }
}

/** Decorates `app` with afterAnswer and answersSettled; closing the app waits for the work. */
export function registerAfterAnswer(app: FastifyInstance) {
  const waiting = new WeakMap<FastifyRequest, (() => Promise<void>)[]>();
  const running = new Set<Promise<void>>();

  app.decorate('afterAnswer', (request: FastifyRequest, work: () => Promise<void>) => {
    waiting.set(request, [...(waiting.get(request) ?? []), work]);
  });
  app.decorate('answersSettled', async () => {
    await Promise.allSettled(running);
  });
  app.addHook('onResponse', async (request) => {
    for (const work of waiting.get(request) ?? []) {
      const run = work()
        .catch((error: unknown) =>
          request.log.error({ err: error }, 'work after the answer failed'),
        )
        // Stryker disable next-line ArrowFunction: it only frees memory; a settled promise left in
        // the set changes nothing answersSettled or the close can see
        .finally(() => running.delete(run));
      running.add(run);
    }
  });
  app.addHook('onClose', async () => {
    await Promise.allSettled(running);
  });
}
