// The portal's start-up, for src/main.ts and for starters that serve something beside it.
import cluster, { type Worker } from 'node:cluster';
import { installQueue } from './adapters/queue-install';
import { buildApp } from './app';
import { ConfigError, loadConfig, settingSources, settingWarnings, type Config } from './config';
import { DatabaseInUseError, openDatabase } from './db/client';
import { loggableError } from './lib/database-errors';
import { asyncLogDestination } from './lib/logging';
import { seedDemoIfEmpty } from './demo/seed';
import { createDeps } from './create-deps';
import type { AppDeps } from './deps';
import { startBackgroundJobs } from './jobs';
import { splitCarriedOverByState } from './modules/invoices/carried-over';
import { startNotices } from './sandbox/notices';
import {
  processMetrics,
  serveMetrics,
  shareWithPrimary,
  workersMetrics,
} from './modules/metrics/server';

const logDestination = asyncLogDestination();

/**
 * How long a stopping process waits for its requests and jobs before it exits anyway; below the
 * 30 s that systemd (TimeoutStopSec in deploy/) and compose (stop_grace_period) allow.
 */
const SHUTDOWN_LIMIT_MS = 25_000;

/** Runs `stop` once, on the first SIGTERM or SIGINT; a process that hangs is ended at the limit. */
function onStopSignal(stop: (signal: string) => Promise<void>) {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      console.error(`Shutdown took longer than ${SHUTDOWN_LIMIT_MS / 1000} s; exiting anyway.`);
      logDestination.flushSync();
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    void stop(signal).then(() => {
      logDestination.flushSync();
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => handle('SIGTERM'));
  process.on('SIGINT', () => handle('SIGINT'));
}

/**
 * What happens once per start, whatever the number of workers: migrations and the corrections
 * that follow them, the secrets kept in DATA_DIR, the demo seed and the notices about them.
 */
async function prepare(config: Config) {
  console.log(settingSources(config).join('\n'));
  for (const warning of settingWarnings(config)) console.warn(warning);
  const database = await openDatabase(config);
  await database.migrate(installQueue);
  const deps = await createDeps(config, database.db);
  await splitCarriedOverByState(deps.db, config.INVOICE_SUPPLIER_GSTIN);
  const notices = startNotices(config, { demoSeeded: await seedDemoIfEmpty(deps) });
  if (notices.warnings.length > 0) console.warn(['', ...notices.warnings, ''].join('\n'));
  if (notices.info.length > 0) console.log(['', ...notices.info, ''].join('\n'));
  return { database, deps };
}

/**
 * Serves requests and runs the background jobs until SIGTERM: then it takes no new connection,
 * finishes the requests in flight and the jobs' work in progress, and closes the database.
 */
async function serve(config: Config, prepared?: Awaited<ReturnType<typeof prepare>>) {
  const database = prepared?.database ?? (await openDatabase(config));
  const deps = prepared?.deps ?? (await createDeps(config, database.db));
  const app = await buildApp(deps, { logger: { stream: logDestination } });
  const { warnings } = startNotices(config, { demoSeeded: false });
  if (warnings.length > 0) app.log.warn({ warnings }, 'production is running the public demo');

  let stopping = false;
  // a kept-alive connection would hold the close open until its client lets go of it
  app.addHook('onSend', async (_request, reply) => {
    if (stopping) reply.header('connection', 'close');
  });

  const jobs = startBackgroundJobs(deps, app.log);
  // a worker's metrics are served by its primary, summed with the other workers'
  if (config.METRICS_PORT && cluster.isWorker) shareWithPrimary(deps.metrics.registry);
  const metrics =
    config.METRICS_PORT && !cluster.isWorker
      ? await serveMetrics(config, processMetrics(deps.metrics.registry))
      : null;
  onStopSignal(async (signal) => {
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    metrics?.close();
    // app.close() stops listening at once, answers 503 on kept-alive connections and waits
    // for the requests in flight; the jobs finish their pass meanwhile
    await Promise.all([jobs.stop(), app.close()]);
    deps.mailer.close();
    await database.close();
    app.log.info('stopped');
  });

  await app.listen({ host: config.HOST, port: config.PORT });
  return app;
}

/**
 * The primary of WEB_CONCURRENCY workers (PostgreSQL only: loadConfig refuses PGlite). It
 * prepares the database once, then forks the workers, which share the port; a worker that dies
 * is replaced, and SIGTERM is passed on to every worker and awaited.
 */
async function runPrimary(config: Config) {
  const { database, deps } = await prepare(config);
  deps.mailer.close();
  await database.close();

  let stopping = false;
  const fork = () => cluster.fork();
  const workers = new Set<Worker>();
  let listening = 0;
  const started = new Promise<void>((resolve, reject) => {
    cluster.on('listening', () => {
      if (++listening === config.WEB_CONCURRENCY) resolve();
    });
    cluster.on('exit', (worker, code, signal) => {
      workers.delete(worker);
      if (stopping) return;
      // a worker that never listened has a problem a new one would meet again
      if (listening < config.WEB_CONCURRENCY) {
        reject(new Error(`A worker stopped during start (exit code ${code ?? signal}).`));
        return;
      }
      console.error(
        `Worker ${worker.process.pid} died (${signal ?? `exit code ${code}`}); starting another.`,
      );
      workers.add(fork());
    });
  });
  for (let i = 0; i < config.WEB_CONCURRENCY; i++) workers.add(fork());
  const metrics = config.METRICS_PORT ? await serveMetrics(config, workersMetrics()) : null;

  onStopSignal(async () => {
    stopping = true;
    metrics?.close();
    const exits = [...workers].map(
      (worker) => new Promise((resolve) => worker.once('exit', resolve)),
    );
    for (const worker of workers) worker.process.kill('SIGTERM');
    await Promise.all(exits);
  });

  try {
    await started;
  } catch (error) {
    stopping = true;
    for (const worker of workers) worker.process.kill('SIGTERM');
    throw error;
  }
  console.log(`Portal running at ${config.PUBLIC_URL} (${config.WEB_CONCURRENCY} workers)`);
}

/**
 * Prepares the database and serves requests in this one process, as `npm start` does without
 * workers; answers what the app runs on, for a caller that serves something beside it.
 */
export async function serveInOneProcess(config: Config): Promise<AppDeps> {
  const prepared = await prepare(config);
  await serve(config, prepared);
  console.log(`Portal running at ${config.PUBLIC_URL}`);
  return prepared.deps;
}

/** The start of `npm start`: a worker, the primary of several workers, or one process. */
export async function start() {
  const config = loadConfig();
  if (cluster.isWorker) {
    await serve(config);
  } else if (config.WEB_CONCURRENCY > 1) {
    await runPrimary(config);
  } else {
    await serveInOneProcess(config);
  }
}

/** Ends a start that failed, saying why. */
export function exitOnStartError(error: unknown): never {
  // a setting to fix or a second process: one line says which
  const oneLine = error instanceof ConfigError || error instanceof DatabaseInUseError;
  if (oneLine) console.error(error.message);
  // a failed migration or seed must not print its query's values
  else console.error(error instanceof Error ? loggableError(error).stack : error);
  logDestination.flushSync();
  process.exit(1);
}
