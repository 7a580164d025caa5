import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { AppDeps } from '../deps';

/** A mistake of the operator's: printed as one line, exit code 1. */
export class CliError extends Error {}

export interface CliCommand {
  summary: string;
  run(args: string[], deps: AppDeps): Promise<void>;
}

/** Parses `--name value` options; unknown options are an error, not ignored. */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

export function requireOption(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new CliError(`--${name} is required`);
  return value.trim();
}
