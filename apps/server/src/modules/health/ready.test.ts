import { readdir, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolderFileStore } from '../../adapters/file-store';
import { createQueue } from '../../adapters/pg-boss-queue';
import { openPostgres } from '../../db/client';
import { startBackgroundJobs } from '../../jobs';
import { RETRY_AFTER_SECONDS } from '../../lib/http-errors';
import { createTestApp, type TestApp } from '../../test/app';
import { openUnreachableDatabase } from '../../test/database';
import { READINESS_REUSE_MS, READINESS_TIMEOUT_MS, readinessChecks } from './routes';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A file store whose folder cannot be created: its parent is a plain file. */
async function brokenFileStore(dir: string) {
  const blocker = path.join(dir, 'not-a-folder');
  await writeFile(blocker, 'x');
  return createFolderFileStore(path.join(blocker, 'files'));
}

describe('GET /api/health/live', () => {
  it('answers live without asking the database', async () => {
    const unreachable = await openUnreachableDatabase();
    const down = await createTestApp({ deps: { db: unreachable.db } });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/api/health/live' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, status: 'live' });
    } finally {
      await down.close();
      await unreachable.close();
    }
  });
});

describe('GET /api/health/ready', () => {
  it('answers ready when the database and the file store answer, and leaves no probe behind', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      status: 'ready',
      checks: { database: 'ok', files: 'ok', queue: 'ok' },
    });
    const left = await readdir(path.join(t.config.DATA_DIR, 'files', 'health')).catch(() => []);
    expect(left).toEqual([]);
  });

  it('checks once for probes side by side or within a second, and again after it', async () => {
    const store = createFolderFileStore(path.join(t.config.DATA_DIR, 'probe-count'));
    const writes: string[] = [];
    const files = {
      ...store,
      put: (...args: Parameters<typeof store.put>) => {
        writes.push(args[0]);
        return store.put(...args);
      },
    };
    const app = await createTestApp({ deps: { files } });
    try {
      const probe = () => app.app.inject({ method: 'GET', url: '/api/health/ready' });
      const answers = await Promise.all(Array.from({ length: 20 }, probe));
      expect(answers.map((res) => res.statusCode)).toEqual(Array(20).fill(200));
      expect((await probe()).statusCode).toBe(200);
      expect(writes).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, READINESS_REUSE_MS + 200));
      expect((await probe()).statusCode).toBe(200);
      expect(writes).toHaveLength(2);
    } finally {
      await app.close();
    }
  });

  it('answers 503 naming the database, and the queue in it, while it is unreachable', async () => {
    const unreachable = await openUnreachableDatabase();
    const down = await createTestApp({ deps: { db: unreachable.db } });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
      expect(res.json()).toEqual({
        success: false,
        message: 'Not ready: the database and the job queue are unreachable',
        checks: { database: 'unreachable', files: 'ok', queue: 'unreachable' },
      });
    } finally {
      await down.close();
      await unreachable.close();
    }
  });

  it('answers 503 naming the file store when it cannot be written', async () => {
    const files = await brokenFileStore(t.config.DATA_DIR);
    const down = await createTestApp({ deps: { files } });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        success: false,
        message: 'Not ready: the file store is unreachable',
        checks: { database: 'ok', files: 'unreachable', queue: 'ok' },
      });
    } finally {
      await down.close();
    }
  });

  it('answers 503 naming the job queue when its tables do not answer', async () => {
    const unreachable = await openUnreachableDatabase();
    const down = await createTestApp({ deps: { queue: createQueue(unreachable.db) } });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        success: false,
        message: 'Not ready: the job queue is unreachable',
        checks: { database: 'ok', files: 'ok', queue: 'unreachable' },
      });
    } finally {
      await down.close();
      await unreachable.close();
    }
  });

  it('names every one that is down', async () => {
    const unreachable = await openUnreachableDatabase();
    const files = await brokenFileStore(t.config.DATA_DIR);
    const down = await createTestApp({ deps: { db: unreachable.db, files } });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe(
        'Not ready: the database, the file store and the job queue are unreachable',
      );
    } finally {
      await down.close();
      await unreachable.close();
    }
  });

  it('answers within its timeout when the database accepts connections but never replies', async () => {
    // a server that takes the connection and stays silent, as a hung database does
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const hung = await openPostgres(`postgres://portal:portal@127.0.0.1:${port}/portal`);
    const down = await createTestApp({ deps: { db: hung.db } });
    try {
      const started = Date.now();
      const res = await down.app.inject({ method: 'GET', url: '/api/health/ready' });
      const took = Date.now() - started;
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toEqual({
        database: 'unreachable',
        files: 'ok',
        queue: 'unreachable',
      });
      expect(took).toBeGreaterThanOrEqual(READINESS_TIMEOUT_MS - 100);
      expect(took).toBeLessThan(READINESS_TIMEOUT_MS + 1_500);
    } finally {
      await down.close();
      for (const socket of sockets) socket.destroy();
      await hung.close().catch(() => undefined);
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('is described in the OpenAPI document with the liveness route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = res.json().paths;
    expect(paths['/api/health/ready'].get.responses).toHaveProperty('503');
    expect(paths['/api/health/live'].get.responses).toHaveProperty('200');
  });
});

describe('GET /api/health/ready on an instance that runs background workers', () => {
  const ready = (app: TestApp) => app.app.inject({ method: 'GET', url: '/api/health/ready' });

  it('is ready once its workers run, and not once they have stopped', async () => {
    const app = await createTestApp();
    try {
      const jobs = startBackgroundJobs(app.deps, pino({ level: 'silent' }));
      expect(app.deps.queue.workers).toBe('starting');
      const starting = await ready(app);
      expect(starting.statusCode).toBe(503);
      expect(starting.json()).toEqual({
        success: false,
        message: 'Not ready: the background workers are not running',
        checks: { database: 'ok', files: 'ok', queue: 'ok', workers: 'not running' },
      });
      await expect.poll(() => app.deps.queue.workers, { timeout: 30_000 }).toBe('running');
      await new Promise((resolve) => setTimeout(resolve, READINESS_REUSE_MS + 100));
      const running = await ready(app);
      expect(running.statusCode).toBe(200);
      expect(running.json().checks).toEqual({
        database: 'ok',
        files: 'ok',
        queue: 'ok',
        workers: 'ok',
      });
      await jobs.stop();
      await new Promise((resolve) => setTimeout(resolve, READINESS_REUSE_MS + 100));
      expect((await ready(app)).json().checks.workers).toBe('not running');
    } finally {
      await app.close();
    }
  });

  it('is not ready, saying why, when its workers fail to start', async () => {
    const app = await createTestApp();
    // a queue whose workers cannot start, as when pg-boss's start fails
    const queue = {
      ...app.deps.queue,
      work: async () => {
        throw new Error('the workers could not start');
      },
    };
    const logged: { msg: string }[] = [];
    try {
      startBackgroundJobs(
        { ...app.deps, queue },
        pino({ base: null }, { write: (line) => logged.push(JSON.parse(line)) }),
      );
      await expect.poll(() => queue.workers, { timeout: 30_000 }).toBe('not running');
      expect(logged.map((line) => line.msg)).toContain('background jobs did not start');
      const checks = await readinessChecks({ ...app.deps, queue });
      expect(checks).toEqual({
        database: 'ok',
        files: 'ok',
        queue: 'ok',
        workers: 'not running',
      });
    } finally {
      await app.close();
    }
  });
});
