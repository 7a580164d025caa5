/** How the host is and behaves: what it is, its load, and probes of its speed before and after. */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';

export async function machine(serverUrl: string) {
  const cpus = os.cpus();
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
  await client.end();
  // Debian's wrapper script says something on stderr that is not the version
  const chromium = execFileSync('/usr/bin/chromium', ['--version'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
  return [
    `${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    `Node ${process.version}, PostgreSQL ${rows[0]?.server_version ?? '?'}, ${chromium}`,
  ].join('; ');
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

/** The time of a fixed piece of single-threaded work, in ms: how fast the host runs right now. */
function cpuProbe(): number {
  const start = process.hrtime.bigint();
  let sum = 0;
  for (let i = 0; i < 100_000_000; i++) sum += i % 7;
  if (sum < 0) throw new Error('unreachable');
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Five probes' fastest and slowest: a shared host that slows down shows as a wide range. */
export function cpuProbes() {
  const times = Array.from({ length: 5 }, cpuProbe);
  return { fastest: Math.min(...times), slowest: Math.max(...times) };
}

/**
 * What one system call costs here, in µs (a one-byte write to /dev/null): serving HTTP and
 * talking to PostgreSQL are mostly system calls, and virtual machines differ in their cost far
 * more than in the speed of plain computation.
 */
export function syscallProbe(): number {
  const fd = openSync('/dev/null', 'w');
  const byte = Buffer.alloc(1);
  const count = 200_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) writeSync(fd, byte);
  const elapsed = Number(process.hrtime.bigint() - start);
  closeSync(fd);
  return elapsed / count / 1000;
}
