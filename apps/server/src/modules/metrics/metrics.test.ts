import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolderFileStore } from '../../adapters/file-store';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { freePort } from '../../test/database';
import { drainQueue } from '../../test/queue';
import { correctionRequests, grievances } from '../privacy/schema';
import { countingFailures, createMetrics } from './registry';
import { processMetrics, serveMetrics } from './server';

let t: TestApp;
beforeAll(async () => {
  // the app counts requests where its metrics are served; createTestApp itself serves nothing
  t = await createTestApp({ env: { METRICS_PORT: '9464' } });
});
afterAll(() => t.close());

/** The value of one sample of the app's metrics, 0 when it is absent. */
async function sample(name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await t.deps.metrics.registry.metrics();
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split('\n')
    .find(
      (row) =>
        (row.startsWith(`${name}{`) || row.startsWith(`${name} `)) &&
        wanted.every((pair) => row.includes(pair)),
    );
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('the request histogram and sign-in counters', () => {
  it("counts each answer by its route's template, never its ids, and refused sign-ins by step", async () => {
    const customer = await createCustomer(t);
    const route = { route: '/api/auth/login', method: 'POST', status_code: '401' };
    const before = await sample('portal_http_request_duration_seconds_count', route);
    const failures = await sample('portal_sign_in_failures_total', { step: 'password' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: {
        email: customer.email,
        mobile: customer.mobile,
        gstNo: customer.gstNo,
        tally_serialno: customer.tallySerialNo,
        password: 'Wrong@12345',
      },
    });
    expect(res.statusCode).toBe(401);
    expect(await sample('portal_http_request_duration_seconds_count', route)).toBe(before + 1);
    expect(await sample('portal_sign_in_failures_total', { step: 'password' })).toBe(failures + 1);

    await t.app.inject({
      method: 'GET',
      url: '/api/orders/00000000-0000-4000-8000-000000000001/receipt',
    });
    const text = await t.deps.metrics.registry.metrics();
    expect(text).toContain('route="/api/orders/:id/receipt"');
    expect(text).not.toContain('00000000-0000-4000-8000-000000000001');
    await t.app.inject({ method: 'GET', url: '/api/no-such-route' });
    expect(
      await sample('portal_http_request_duration_seconds_count', {
        route: 'unmatched',
        status_code: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
  });
  it('counts no request where no metrics are served', async () => {
    const unwatched = await createTestApp();
    try {
      expect((await unwatched.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(
        200,
      );
      const text = await unwatched.deps.metrics.registry.metrics();
      expect(text).not.toMatch(/^portal_http_request_duration_seconds_count\{/m);
    } finally {
      await unwatched.close();
    }
  });
});

describe('the job queues', () => {
  it('reports what waits, and counts each run by how it ended, dead letters included', async () => {
    await t.deps.queue.send(t.deps.db, 'reminders', {}, { retryLimit: 0 });
    expect(await sample('portal_jobs', { queue: 'reminders', state: 'queued' })).toBe(1);
    expect(
      await sample('portal_jobs_oldest_queued_seconds', { queue: 'reminders' }),
    ).toBeGreaterThanOrEqual(0);

    await t.deps.queue.work('reminders', async () => {
      throw new Error('the reminders failed');
    });
    await drainQueue(t, 'reminders');
    expect(
      await sample('portal_jobs_total', { queue: 'reminders', outcome: 'dead_lettered' }),
    ).toBe(1);
    expect(await sample('portal_jobs', { queue: 'reminders', state: 'dead_letter' })).toBe(1);
    expect(await sample('portal_jobs', { queue: 'reminders', state: 'queued' })).toBe(0);
    // every queue has its counters from the start
    expect(await sample('portal_jobs_total', { queue: 'mail', outcome: 'failed' })).toBe(0);
    expect(await t.deps.metrics.registry.metrics()).toContain(
      'portal_jobs_total{queue="mail",outcome="failed"} 0',
    );
  });

  it('counts the grievances past their due date unanswered, by the database clock', async () => {
    const customer = await createCustomer(t);
    const now = Date.now();
    const grievance = (reference: string, dueInMs: number, answeredAt: Date | null = null) => ({
      reference,
      customerId: customer.id,
      topic: 'Something else',
      message: 'A grievance about the metrics.',
      submittedAt: new Date(now - 86_400_000),
      respondBy: new Date(now + dueInMs),
      answeredAt,
      answer: answeredAt && 'Answered.',
    });
    expect(await sample('portal_grievances_overdue')).toBe(0);
    await t.deps.db
      .insert(grievances)
      .values([
        grievance('GRV-LATE0001', -60_000),
        grievance('GRV-LATE0002', -120_000),
        grievance('GRV-DONE0001', -60_000, new Date(now)),
        grievance('GRV-SOON0001', 3_600_000),
      ]);
    expect(await sample('portal_grievances_overdue')).toBe(2);
  });

  it('counts the correction requests past their due date undecided, by the database clock', async () => {
    const customer = await createCustomer(t);
    const now = Date.now();
    const request = (reference: string, field: string, dueInMs: number, decided = false) => ({
      reference,
      customerId: customer.id,
      field,
      currentValue: 'Old',
      requestedValue: 'New',
      submittedAt: new Date(now - 86_400_000),
      respondBy: new Date(now + dueInMs),
      decidedAt: decided ? new Date(now) : null,
      outcome: decided ? 'Declined' : null,
    });
    expect(await sample('portal_corrections_overdue')).toBe(0);
    await t.deps.db
      .insert(correctionRequests)
      .values([
        request('COR-LATE0001', 'companyName', -60_000),
        request('COR-DONE0001', 'mobile', -60_000, true),
        request('COR-SOON0001', 'gstNo', 3_600_000),
      ]);
    expect(await sample('portal_corrections_overdue')).toBe(1);
  });

  it('reads each readiness check', async () => {
    expect(await sample('portal_ready', { check: 'database' })).toBe(1);
    expect(await sample('portal_ready', { check: 'files' })).toBe(1);
  });
});

describe('the file store', () => {
  it('counts failed operations, not missing files', async () => {
    const metrics = createMetrics();
    // a folder that cannot be made: its parent is a plain file
    const blocker = path.join(t.config.DATA_DIR, 'not-a-folder');
    await writeFile(blocker, 'x');
    const store = countingFailures(createFolderFileStore(path.join(blocker, 'files')), metrics);
    await expect(store.put('a/b', Buffer.from('x'))).rejects.toThrow();
    const healthy = countingFailures(
      createFolderFileStore(path.join(t.config.DATA_DIR, 'healthy')),
      metrics,
    );
    expect(await healthy.read('missing')).toBeNull();
    const text = await metrics.registry.metrics();
    expect(text).toContain('portal_file_store_errors_total{operation="put"} 1');
    expect(text).not.toContain('operation="read"');
  });
});

describe('GET /metrics', () => {
  it('is served on its own port, with the token when one is set, and never on the public one', async () => {
    const port = await freePort();
    const token = 'metrics-token-0123456789';
    const server = await serveMetrics(
      { METRICS_HOST: '127.0.0.1', METRICS_PORT: port, METRICS_TOKEN: token },
      processMetrics(createMetrics().registry),
    );
    try {
      const url = `http://127.0.0.1:${port}/metrics`;
      const open = await fetch(url);
      expect(open.status).toBe(401);
      expect(open.headers.get('www-authenticate')).toBe('Bearer');
      expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const read = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect(read.status).toBe(200);
      expect(read.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await read.text();
      expect(text).toContain('# TYPE portal_http_request_duration_seconds histogram');
      expect(text).toContain('process_cpu_user_seconds_total');
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const pub = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(pub.statusCode).toBe(404);
  });
});
