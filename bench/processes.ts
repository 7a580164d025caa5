/** The servers under measure, each in its own Node process, and the CPU time each one spends. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  /** What the process printed, for the error message when it fails. */
  output(): string;
  stop(): Promise<void>;
}

/** User plus system CPU seconds the process has used so far (all its threads). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name, which is in parentheses and may hold spaces
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (!address || typeof address !== 'object') throw new Error('no free port');
  return address.port;
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(killer);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/**
 * Starts `node --import tsx <script>` from the repository root. It is ready when `ready` finds
 * its URL: from a line it prints, or by asking it over HTTP.
 */
export async function startNodeServer(options: {
  name: string;
  script: string;
  env: Record<string, string>;
  ready: (output: string) => Promise<string | null>;
  timeoutMs?: number;
  /** Node's own options, before the script's loader. */
  nodeOptions?: string[];
}): Promise<ServerProcess> {
  const args = [...(options.nodeOptions ?? []), '--import', 'tsx', options.script];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const stop = stopper(child);
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${options.name} exited with ${child.exitCode}:\n${output}`);
    }
    const url = await options.ready(output);
    if (url) {
      return { name: options.name, url, pid: child.pid!, output: () => output, stop };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`${options.name} did not start in time:\n${output}`);
}

/** Ready when the process printed `listening <url>`. */
export const printsListening = async (output: string) =>
  output.match(/^listening (\S+)$/m)?.[1] ?? null;

/** A small program of this folder (peer.ts, bare.ts) in its own process. */
export const startProgram = (name: string, file: string, env: Record<string, string> = {}) =>
  startNodeServer({
    name,
    script: path.join('bench', file),
    env: { NODE_ENV: 'production', ...env },
    ready: printsListening,
  });
