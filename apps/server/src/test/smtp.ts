import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSmtpMailer } from '../adapters/mail';
import { mailTemplates } from '../mail-templates';
import { startMailDelivery } from '../modules/mail/delivery';
import { createTestApp, type TestApp } from './app';
import { parseMail, type ReadMail } from './mail';

const SINK = fileURLToPath(new URL('./smtp-sink.mjs', import.meta.url));

/** A port free now on the loopback address. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A real SMTP server process on one fixed port, which the test stops (killed, as in a crash)
 * and starts again; what it received survives in a folder.
 */
export interface SmtpProcess {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Every message received so far, oldest first. */
  received(): Promise<ReadMail[]>;
  close(): Promise<void>;
}

export async function createSmtpProcess(): Promise<SmtpProcess> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'smtp-sink-'));
  let child: ChildProcess | null = null;

  const stop = async () => {
    if (!child) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    child = null;
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    async start() {
      const started = spawn(process.execPath, [SINK, String(port), dir], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      child = started;
      await new Promise<void>((resolve, reject) => {
        started.once('exit', (code) => reject(new Error(`SMTP process exited with ${code}`)));
        started.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('listening')) resolve();
        });
      });
    },
    stop,
    async received() {
      const files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
      return Promise.all(files.map(async (f) => parseMail(await readFile(path.join(dir, f)))));
    },
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The app, its mail delivered to `smtp` by its own queue worker, as in production. */
export async function appMailingThrough(
  smtp: SmtpProcess,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const t = await createTestApp({
    env,
    deps: { mailer: createSmtpMailer(smtp.url, 'Connected Banking Portal <no-reply@portal.test>') },
  });
  await startMailDelivery(t.deps, mailTemplates, { pollingIntervalSeconds: 0.5 });
  return t;
}
