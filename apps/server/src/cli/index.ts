import { ConfigError, loadConfig } from '../config';
import { DatabaseInUseError, openDatabase } from '../db/client';
import { createDeps } from '../deps';
import { CliError, type CliCommand } from './command';
import { customerCommands } from './customers';
import { pluginCommands } from './plugins';
import { partnerCommands } from './partners';
import { consentCommands } from './consents';
import { planCommands } from './plans';
import { orderCommands } from './orders';

/** Every operator command, by name. Each area adds its own file and one line here. */
const commands: Record<string, CliCommand> = {
  ...customerCommands,
  ...pluginCommands,
  ...partnerCommands,
  ...consentCommands,
  ...planCommands,
  ...orderCommands,
};

function help() {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  console.log('Usage: npm run admin -- <command> [options]\n\nCommands:');
  for (const [name, command] of Object.entries(commands).sort()) {
    console.log(`  ${name.padEnd(width)}  ${command.summary}`);
  }
}

async function main(argv: string[]) {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help') return help();
  const command = commands[name];
  if (!command)
    throw new CliError(`Unknown command "${name}". Run "npm run admin -- help" for the list.`);
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const deps = await createDeps(config, database.db);
    await command.run(args, deps);
    deps.mailer.close();
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof CliError ||
    error instanceof ConfigError ||
    error instanceof DatabaseInUseError
  ) {
    console.error(`Error: ${error.message}`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
