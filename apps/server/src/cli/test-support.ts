import path from 'node:path';
import { vi } from 'vitest';
import type { TestApp } from '../test/app';
import { runCli } from './run';

/** What `work` prints with console.log and console.error, line by line, while it runs. */
export async function printedBy<T>(work: () => Promise<T>) {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
    out.push(String(line));
  });
  const error = vi.spyOn(console, 'error').mockImplementation((line: unknown) => {
    err.push(String(line));
  });
  try {
    return { result: await work(), out, err };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/** Runs the operator's command line on the test app's database; answers the exit code and output. */
export async function runAdmin(t: TestApp, argv: string[], env: Record<string, string> = {}) {
  const { result, out, err } = await printedBy(() =>
    runCli(argv, {
      db: t.deps.db,
      env: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: t.config.DATA_DIR,
        WEB_DIST_DIR: path.join(t.config.DATA_DIR, 'no-web'),
        ...env,
      },
    }),
  );
  return { code: result, out, err };
}
