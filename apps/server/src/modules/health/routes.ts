import { sql } from 'drizzle-orm';
import { ErrorResponseSchema, HealthResponseSchema, healthPath } from '@portal/contract';
import { AppError } from '../../lib/errors';
import type { App } from '../../lib/types';

export async function healthRoutes(app: App) {
  app.get(
    healthPath,
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability',
        response: { 200: HealthResponseSchema, 503: ErrorResponseSchema },
      },
    },
    async () => {
      try {
        await app.deps.db.execute(sql`select 1`);
      } catch {
        throw new AppError('SERVICE_UNAVAILABLE', 'Database is unreachable');
      }
      return { success: true as const, status: 'ok' as const, database: 'ok' as const };
    },
  );
}
