import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DatabaseInUseError, openDatabase } from './db/client';
import { DEMO_ACCOUNT, seedDemoIfEmpty } from './db/seed';
import { createDeps, outboxDir } from './deps';
import { startAuthPurge } from './jobs/purge-expired-auth';
import { startPaymentReconciliation } from './jobs/reconcile-payments';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase(config);
  await database.migrate();
  const deps = await createDeps(config, database.db);
  const app = await buildApp(deps);

  if (config.SEED_DEMO && (await seedDemoIfEmpty(deps))) {
    const mailNote = config.MAIL_URL ? 'sent by SMTP' : `written to ${outboxDir(config)}`;
    console.log(
      [
        '',
        'Demo account created. Sign in at ' + `${config.PUBLIC_URL}/login with:`,
        `  E-mail:              ${DEMO_ACCOUNT.email}`,
        `  Mobile number:       ${DEMO_ACCOUNT.mobile}`,
        `  GST number:          ${DEMO_ACCOUNT.gstNo}`,
        `  Tally serial number: ${DEMO_ACCOUNT.tallySerialNo}`,
        `  Password:            ${DEMO_ACCOUNT.password}`,
        `The verification code is e-mailed (${mailNote}).`,
        '',
      ].join('\n'),
    );
  }

  const reconciliation = startPaymentReconciliation(
    deps,
    app.log,
    config.PAYMENT_RECONCILE_MINUTES,
  );
  const authPurge = startAuthPurge(deps, app.log, config.AUTH_PURGE_MINUTES);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await Promise.all([reconciliation.stop(), authPurge.stop()]);
    await app.close();
    deps.mailer.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.HOST, port: config.PORT });
  console.log(`Portal running at ${config.PUBLIC_URL}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof DatabaseInUseError ? error.message : error);
  process.exit(1);
});
