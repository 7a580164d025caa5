import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Debian's haproxy (`apt-get install -y haproxy`). */
export const HAPROXY = '/usr/sbin/haproxy';

/** The response header that names the instance haproxy sent a request to. */
export const SERVED_BY = 'x-served-by';

/**
 * The load balancer of docs/operations.md, as the tests run it: round robin, no stickiness, a
 * server taken out after two failed readiness checks a second apart, a refused connection tried
 * again on another server. Each request is logged as `<server> <method> <path> <status>`.
 */
export function haproxyConfig(port: number, servers: Record<string, number>) {
  return [
    'global',
    '  log stdout format raw local0 info',
    '  maxconn 512',
    'defaults',
    '  mode http',
    '  log global',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  retries 3',
    '  option redispatch 1',
    'frontend portal',
    `  bind 127.0.0.1:${port}`,
    '  log-format "%s %HM %HP %ST"',
    '  option forwardfor',
    '  default_backend portals',
    'backend portals',
    '  balance roundrobin',
    '  option httpchk GET /api/health/ready',
    '  http-check expect status 200',
    '  default-server inter 1s fall 2 rise 1',
    `  http-response set-header ${SERVED_BY} %[srv_name]`,
    ...Object.entries(servers).map(([name, p]) => `  server ${name} 127.0.0.1:${p} check`),
    '',
  ].join('\n');
}

export interface Haproxy {
  child: ChildProcess;
  url: string;
  /** Its log so far: one line per request, and the servers' state changes. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts haproxy in the foreground with the configuration written to `dir`. */
export async function startHaproxy(
  dir: string,
  port: number,
  servers: Record<string, number>,
): Promise<Haproxy> {
  if (!existsSync(HAPROXY)) {
    throw new Error(
      `haproxy was not found at ${HAPROXY}; install it with: apt-get install -y haproxy`,
    );
  }
  const cfg = path.join(dir, 'haproxy.cfg');
  await writeFile(cfg, haproxyConfig(port, servers));
  const child = spawn(HAPROXY, ['-f', cfg, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  child.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy did not start:\n${printed}`);
    const up = await fetch(`${url}/api/health/live`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`haproxy did not answer:\n${printed}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    child,
    url,
    log: () => printed,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
