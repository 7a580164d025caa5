import { installQueue } from '../adapters/queue-install';
import { buildApp } from '../app';
import { ConfigError, loadConfig } from '../config';
import { DatabaseInUseError, openDatabase, type Database } from '../db/client';
import { createDeps } from '../create-deps';
import { CliError, type CliCommand } from './command';
import { customerCommands } from './customers';
import { pluginCommands } from './plugins';
import { partnerCommands } from './partners';
import { consentCommands } from './consents';
import { planCommands } from './plans';
import { orderCommands } from './orders';
import { invoiceCommands } from './invoices';
import { jobCommands } from './jobs';
import { correctionCommands } from './corrections';
import { grievanceCommands } from './grievances';
import { auditCommands, runAudited } from './audit';
import { loggableError } from '../lib/database-errors';

/** Every operator command, by name. Each area adds its own file and one line here. */
const commands: Record<string, CliCommand> = {
  ...customerCommands,
  ...pluginCommands,
  ...partnerCommands,
  ...consentCommands,
  ...planCommands,
  ...orderCommands,
  ...invoiceCommands,
  ...jobCommands,
  ...grievanceCommands,
  ...correctionCommands,
  ...auditCommands,
};

function help() {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  console.log('Usage: npm run admin -- <command> [options]\n\nCommands:');
  for (const [name, command] of Object.entries(commands).sort()) {
    console.log(`  ${name.padEnd(width)}  ${command.summary}`);
  }
}

async function run(argv: string[], options: { env?: NodeJS.ProcessEnv; db?: Database }) {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help') return help();
  const command = commands[name];
  if (!command)
    throw new CliError(`Unknown command "${name}". Run "npm run admin -- help" for the list.`);
  const config = loadConfig(options.env);
  const database = options.db ? null : await openDatabase(config);
  try {
    await database?.migrate(installQueue);
    const deps = await createDeps(config, options.db ?? database!.db);
    // the built-in sandboxes are served in memory by this process, never asked over the network
    const app = await buildApp(deps, { logger: false });
    try {
      await app.ready();
      await runAudited(deps, name, () => command.run(args, deps));
    } finally {
      await app.close();
      deps.mailer.close();
    }
  } finally {
    await database?.close();
  }
}

/**
 * Runs one operator command and answers the exit code: 0 when it did everything, 1 when
 * anything failed, after saying what on standard error. `db` lets tests bring their database.
 */
export async function runCli(
  argv: string[],
  options: { env?: NodeJS.ProcessEnv; db?: Database } = {},
): Promise<number> {
  try {
    await run(argv, options);
    return 0;
  } catch (error) {
    if (
      error instanceof CliError ||
      error instanceof ConfigError ||
      error instanceof DatabaseInUseError
    ) {
      console.error(`Error: ${error.message}`);
    } else {
      // an unexpected failure, printed without its query's values
      console.error(error instanceof Error ? loggableError(error).stack : error);
    }
    return 1;
  }
}
