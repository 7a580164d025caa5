import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import {
  ErrorResponseSchema,
  HealthResponseSchema,
  LiveResponseSchema,
  NotReadyResponseSchema,
  ReadyResponseSchema,
  healthPath,
  livePath,
  readyPath,
  type ReadinessChecks,
} from '@portal/contract';
import { RETRY_AFTER_SECONDS } from '../../lib/http-errors';
import { AppError } from '../../lib/errors';
import type { App } from '../../lib/types';
import type { AppDeps } from '../../deps';

/** A check that has not answered by then counts as unreachable: a probe must answer quickly. */
export const READINESS_TIMEOUT_MS = 3_000;

const NAMES: Record<Exclude<keyof ReadinessChecks, 'workers'>, string> = {
  database: 'the database',
  files: 'the file store',
  queue: 'the job queue',
};

async function withinTimeout(work: () => Promise<unknown>): Promise<'ok' | 'unreachable'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'unreachable'>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), READINESS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      work().then(
        () => 'ok' as const,
        () => 'unreachable' as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Each probe writes its own key, so that probes of several instances, or one instance's
 * probes side by side, never race over one object. */
const probeKey = () =>
  `health/ready-${hostname().replace(/[^a-z0-9.-]/gi, '-')}-${process.pid}-${randomUUID()}`;

/** Runs every check side by side; each says 'ok' or 'unreachable'. */
export async function readinessChecks(
  deps: Pick<AppDeps, 'db' | 'files' | 'queue'>,
): Promise<ReadinessChecks> {
  const [database, files, queue] = await Promise.all([
    withinTimeout(() => deps.db.execute(sql`select 1`)),
    // a write is what receipts need; the probe is removed again so backups never carry it
    withinTimeout(async () => {
      const key = probeKey();
      await deps.files.put(key, Buffer.from('ok'));
      await deps.files.remove(key);
    }),
    withinTimeout(async () => {
      if (!(await deps.queue.ready())) throw new Error('the queue does not answer');
    }),
  ]);
  const workers = deps.queue.workers;
  if (workers === 'none') return { database, files, queue };
  return { database, files, queue, workers: workers === 'running' ? 'ok' : 'not running' };
}

/**
 * How long one readiness answer serves every probe after it: probes side by side, or a flood of
 * them from outside, cost the file store at most one write (and its delete) a second an instance.
 */
export const READINESS_REUSE_MS = 1_000;

/** `readinessChecks`, run once for every probe that comes while it runs or within the reuse. */
function sharedReadinessChecks(deps: Pick<AppDeps, 'db' | 'files' | 'queue'>) {
  let shared: Promise<ReadinessChecks> | null = null;
  return () =>
    (shared ??= readinessChecks(deps).finally(() => {
      setTimeout(() => (shared = null), READINESS_REUSE_MS).unref();
    }));
}

export async function healthRoutes(app: App) {
  const checkReadiness = sharedReadinessChecks(app.deps);

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

  app.get(
    livePath,
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: the process is up (asks nothing of the database or the file store)',
        response: { 200: LiveResponseSchema },
      },
    },
    async () => ({ success: true as const, status: 'live' as const }),
  );

  app.get(
    readyPath,
    {
      schema: {
        tags: ['health'],
        summary:
          'Readiness: the database, the file store and the job queue answer, and the background workers run',
        response: { 200: ReadyResponseSchema, 503: NotReadyResponseSchema },
      },
    },
    async (_request, reply) => {
      const checks = await checkReadiness();
      const failing = (Object.keys(NAMES) as (keyof typeof NAMES)[]).filter(
        (name) => checks[name] !== 'ok',
      );
      const stopped = checks.workers === 'not running';
      if (failing.length === 0 && !stopped) {
        return { success: true as const, status: 'ready' as const, checks };
      }
      const names = failing.map((name) => NAMES[name]);
      const listed =
        names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
      const problems = [
        ...(failing.length > 0
          ? [`${listed} ${failing.length === 1 ? 'is' : 'are'} unreachable`]
          : []),
        ...(stopped ? ['the background workers are not running'] : []),
      ];
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({
          success: false as const,
          message: `Not ready: ${problems.join('; ')}`,
          checks,
        });
    },
  );
}
