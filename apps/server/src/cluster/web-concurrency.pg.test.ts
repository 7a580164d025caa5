import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, postgresTestServerUrl } from '../test/database';
import { createPostgresDatabase, startPortal, stopPortal, type PortalProcess } from './processes';

let dataDir: string;
let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
let portal: PortalProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-workers-'));
  database = await createPostgresDatabase(postgresTestServerUrl());
  portal = await startPortal(await freePort(), {
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    DATABASE_URL: database.url,
    WEB_CONCURRENCY: '2',
  });
});

afterAll(async () => {
  await stopPortal(portal);
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** The pids that logged "Server listening", in order. */
const listeningPids = () =>
  [...portal!.output().matchAll(/"pid":(\d+),[^\n]*"msg":"Server listening/g)].map((m) =>
    Number(m[1]),
  );
/** The pids that answered a request. */
const answeringPids = () =>
  new Set(
    [...portal!.output().matchAll(/"pid":(\d+),[^\n]*"msg":"request completed"/g)].map((m) =>
      Number(m[1]),
    ),
  );
/**
 * GET on a connection of its own, closed after the answer: fetch keeps connections alive (it
 * ignores a Connection header), and one kept to a worker that is then killed can leave the next
 * request waiting on it.
 */
const freshGet = (url: string) =>
  new Promise<{ status: number }>((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: 15_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url}`)));
    request.on('error', reject);
  });

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start with WEB_CONCURRENCY=2 on PostgreSQL', () => {
  it('prepares once, in the primary (migrations, secrets, seed, notices), and serves from two workers on one port', async () => {
    // the primary's line and the workers' own come from three processes, in no fixed order
    await expect
      .poll(() => portal!.output(), { timeout: 30_000 })
      .toMatch(/Portal running at [^\n]* \(2 workers\)/);
    await expect.poll(() => listeningPids().length, { timeout: 5_000 }).toBe(2);
    const out = portal!.output();
    expect(out.match(/Demo account created/g)).toHaveLength(1);
    // the start-up notices come from the one preparation (migrations, secrets, seed)
    expect(out.match(/Sandbox in use/g)).toHaveLength(1);
    expect(out.match(/Portal running at [^\n]* \(2 workers\)/g)).toHaveLength(1);
    const workers = listeningPids();
    expect(new Set(workers).size).toBe(2);
    expect(workers).not.toContain(portal!.child.pid);

    // node:cluster hands connections out in turn; fresh connections reach both workers
    // each worker is ready once its job workers run, which may come after the line above
    for (let i = 0; i < 8; i++) {
      await expect
        .poll(async () => (await freshGet(`${portal!.url}/api/health/ready`)).status, {
          timeout: 15_000,
        })
        .toBe(200);
    }
    await expect
      .poll(() => [...answeringPids()].sort(), { timeout: 5_000 })
      .toEqual([...workers].sort());
  });

  it('replaces a worker that dies, and serves meanwhile from the other', async () => {
    const [victim, survivor] = listeningPids();
    process.kill(victim!, 'SIGKILL');
    // node:cluster's primary hands each connection to a worker; one handed over in the moment
    // before it has seen the death goes to the dead worker and is lost. A client retries that;
    // what must hold is that once the death is seen, the survivor serves at once.
    await expect
      .poll(() => portal!.output(), { timeout: 10_000 })
      .toContain(`Worker ${victim} died (SIGKILL); starting another.`);
    const res = await freshGet(`${portal!.url}/api/health/live`);
    expect(res.status).toBe(200);
    await expect.poll(() => listeningPids().length, { timeout: 60_000 }).toBe(3);
    expect(isRunning(survivor!)).toBe(true);
  }, 90_000);

  it('stops every worker and then itself on SIGTERM, with exit code 0', async () => {
    const workers = listeningPids().slice(1);
    portal!.child.kill('SIGTERM');
    expect(await portal!.exited).toEqual({ code: 0, signal: null });
    expect(workers.filter(isRunning)).toEqual([]);
    expect(portal!.output().match(/"msg":"stopped"/g)).toHaveLength(2);
  });
});
