import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DatabaseInUseError, openDatabase } from './db/client';
import { loggableError } from './lib/database-errors';
import { asyncLogDestination } from './lib/logging';
import { seedDemoIfEmpty } from './db/seed';
import { createDeps } from './deps';
import { startBackgroundJobs } from './jobs';
import { startNotices } from './sandbox/notices';

const logDestination = asyncLogDestination();

async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  await database.migrate();
  const deps = await createDeps(config, database.db);
  const app = await buildApp(deps, { logger: { stream: logDestination } });

  const notices = startNotices(config, { demoSeeded: await seedDemoIfEmpty(deps) });
  if (notices.warnings.length > 0) {
    console.warn(['', ...notices.warnings, ''].join('\n'));
    app.log.warn({ warnings: notices.warnings }, 'production is running the public demo');
  }
  if (notices.info.length > 0) console.log(['', ...notices.info, ''].join('\n'));

  const jobs = startBackgroundJobs(deps, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await jobs.stop();
    await app.close();
    deps.mailer.close();
    await database.close();
    logDestination.flushSync();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.HOST, port: config.PORT });
  console.log(`Portal running at ${config.PUBLIC_URL}`);
}

main().catch((error: unknown) => {
  // a setting to fix or a second process: one line says which
  const oneLine = error instanceof ConfigError || error instanceof DatabaseInUseError;
  if (oneLine) console.error(error.message);
  // a failed migration or seed must not print its query's values
  else console.error(error instanceof Error ? loggableError(error).stack : error);
  logDestination.flushSync();
  process.exit(1);
});
