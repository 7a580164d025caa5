import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import pg from 'pg';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A portal started as `npm start` starts it (src/main.ts), in its own process. */
export interface PortalProcess {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts src/main.ts with `env` on `port` and waits until /api/health/ready answers 200 (or the
 * process ends, which rejects with what it printed).
 */
export async function startPortal(
  port: number,
  env: Record<string, string>,
  { readyWithinMs = 90_000 } = {},
): Promise<PortalProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      // the scheduled jobs are off (mail is still delivered); tests that want them set these
      PAYMENT_RECONCILE_MINUTES: '0',
      AUTH_PURGE_MINUTES: '0',
      CONSENT_EXPIRY_MINUTES: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const portal: PortalProcess = { child, url, output: () => printed, exited };
  await waitUntilReady(url, exited, readyWithinMs).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}\n--- its output ---\n${printed}`);
  });
  return portal;
}

/** Waits until /api/health/ready answers 200; rejects if `exited` settles first or time runs out. */
export async function waitUntilReady(url: string, exited: Promise<unknown>, withinMs: number) {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the portal at ${url} exited during start`);
    const ok = await fetch(`${url}/api/health/ready`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the portal at ${url} was not ready within ${withinMs / 1000} s`);
}

/** Ends the process if it is still running and waits for it. */
export async function stopPortal(portal: PortalProcess | undefined) {
  if (!portal) return;
  if (portal.child.exitCode === null && portal.child.signalCode === null) {
    portal.child.kill('SIGKILL');
  }
  await portal.exited;
}

/**
 * A new, empty database on the PostgreSQL server of the run (TEST_DATABASE_URL); `drop`
 * removes it.
 */
export async function createPostgresDatabase(serverUrl: string | undefined) {
  if (!serverUrl) {
    throw new Error(
      'These tests need PostgreSQL: set TEST_DB=postgres and TEST_DATABASE_URL (for example postgres://portal:portal@localhost:5432/postgres).',
    );
  }
  const name = `portal_cluster_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
