import type { CliCommand } from './command';

export const customerCommands: Record<string, CliCommand> = {};
