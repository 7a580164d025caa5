import { gte, lte, type AnyColumn, type SQL } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { App } from '../../lib/types';

/** A refusal in Razorpay's shape: its SDK reads `error.description`. */
export const refuse = (reply: FastifyReply, status: number, description: string) =>
  reply.code(status).send({ error: { code: 'BAD_REQUEST_ERROR', description } });

/**
 * Bodies as Razorpay takes them: JSON or form-encoded, and none at all on cancel, where its SDK
 * sends a form content type and its own examples send `Content-Type: application/json`. The
 * sandbox's pages send their plain HTML forms the same way.
 */
export function razorpayBodies(instance: App) {
  instance.removeContentTypeParser('application/json');
  instance.addContentTypeParser(
    ['application/json', 'application/x-www-form-urlencoded'],
    { parseAs: 'string' },
    (request, body, done) => {
      const text = String(body);
      if (text.trim() === '') return done(null, undefined);
      if (!request.headers['content-type']?.startsWith('application/json')) {
        return done(null, Object.fromEntries(new URLSearchParams(text)));
      }
      try {
        done(null, JSON.parse(text));
      } catch {
        done(Object.assign(new Error('The request body is not valid JSON'), { statusCode: 400 }));
      }
    },
  );
}

/** A collection's `from` and `to`: creation times in Unix seconds, both ends included. */
export function createdWithin(column: AnyColumn, q: { from?: number; to?: number }): SQL[] {
  const where: SQL[] = [];
  if (q.from !== undefined) where.push(gte(column, new Date(q.from * 1000)));
  // `to` names a whole second: everything before the next one is in it
  if (q.to !== undefined) where.push(lte(column, new Date(q.to * 1000 + 999)));
  return where;
}
