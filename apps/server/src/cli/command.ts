import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { AppDeps } from '../deps';
import { AppError } from '../lib/errors';

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

/** A service's refusal is the operator's to fix: one line, not a stack trace. */
export async function asCli<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw new CliError(error.message);
    throw error;
  }
}
