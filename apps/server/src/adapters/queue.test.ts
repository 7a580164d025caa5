import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { openUnreachableDatabase } from '../test/database';
import { createCustomer } from '../test/customers';
import { drainQueue, jobsOf, runRetriesNow } from '../test/queue';
import { customers } from '../modules/users/schema';
import { createQueue } from './pg-boss-queue';
import { deadLetterOf, type Job } from './queue';

let t: TestApp;
const runs: Job<{ n: number; fail?: boolean }>[] = [];
beforeAll(async () => {
  t = await createTestApp();
  await t.deps.queue.work<{ n: number; fail?: boolean }>('mail', async (job) => {
    runs.push(job);
    if (job.data.fail) throw new Error(`try ${job.retryCount} refused`);
  });
});
afterAll(() => t.close());

const runsOf = (n: number) => runs.filter((job) => job.data.n === n);

describe('the job queue', () => {
  it('never runs a job sent in a transaction that rolled back, nor keeps its change', async () => {
    const customer = await createCustomer(t);
    await expect(
      t.deps.db.transaction(async (tx) => {
        await tx
          .update(customers)
          .set({ mobile: '9000000001' })
          .where(eq(customers.id, customer.id));
        expect(await t.deps.queue.send(tx, 'mail', { n: 1 })).toEqual(expect.any(String));
        throw new Error('the change is refused');
      }),
    ).rejects.toThrow('the change is refused');
    await drainQueue(t, 'mail');
    expect(runsOf(1)).toEqual([]);
    expect(await jobsOf(t, 'mail')).toEqual([]);
    expect(await mobileOf(customer.id)).toBe(customer.mobile);
  });

  it('runs a job sent in a transaction that committed, once', async () => {
    const customer = await createCustomer(t);
    const id = await t.deps.db.transaction(async (tx) => {
      await tx.update(customers).set({ mobile: '9000000001' }).where(eq(customers.id, customer.id));
      return t.deps.queue.send(tx, 'mail', { n: 2 });
    });
    await drainQueue(t, 'mail');
    expect(runsOf(2).map((job) => job.id)).toEqual([id]);
    const [job] = (await jobsOf(t, 'mail')).filter((j) => j.id === id);
    expect(job!.state).toBe('completed');
    expect(await mobileOf(customer.id)).toBe('9000000001');
  });

  it('retries a failing job with a growing wait, then moves it to the dead letters', async () => {
    const logged: Record<string, unknown>[] = [];
    t.deps.queue.logTo(pino({ base: null }, { write: (line) => logged.push(JSON.parse(line)) }));
    const id = await t.deps.queue.send(t.deps.db, 'mail', { n: 3, fail: true }, { retryLimit: 2 });
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      await waitFor(
        async () => runsOf(3).length === attempt && (await jobOf(id!)).state === 'retry',
      );
      const job = await jobOf(id!);
      // pg-boss waits delay × 2^(try) / 2, plus up to as much again at random, from the failure
      waits.push(job.startAfter.getTime() - job.startedOn!.getTime());
      await runRetriesNow(t, 'mail');
      t.deps.queue.wake('mail');
    }
    await waitFor(async () => (await jobOf(id!)).state === 'failed');
    // mail's first retry waits 30-60 s, the next 60-120 s (plus the moments each try took)
    expect(waits[0]).toBeGreaterThanOrEqual(30_000);
    expect(waits[0]).toBeLessThanOrEqual(65_000);
    expect(waits[1]).toBeGreaterThanOrEqual(60_000);
    expect(waits[1]).toBeLessThanOrEqual(125_000);
    expect(runsOf(3).map((job) => job.retryCount)).toEqual([0, 1, 2]);
    expect(
      logged.map(({ msg, id: jobId, retryCount, err }) => ({ msg, jobId, retryCount, err })),
    ).toEqual(
      [0, 1, 2].map((retryCount) => ({
        msg: 'job failed',
        jobId: id,
        retryCount,
        err: expect.objectContaining({ message: `try ${retryCount} refused` }),
      })),
    );
    const failed = await jobOf(id!);
    expect(failed.output?.message).toBe('try 2 refused');
    const letters = await jobsOf(t, deadLetterOf('mail'));
    expect(letters).toEqual([
      expect.objectContaining({ state: 'created', data: { n: 3, fail: true } }),
    ]);
    const mail = (await t.deps.queue.counts()).find((c) => c.name === 'mail');
    expect(mail).toMatchObject({ queued: 0, active: 0, failed: 1 });
  });
});

describe('a backlog', () => {
  it('runs one job after another without waiting the polling interval between them', async () => {
    const app = await createTestApp();
    try {
      const ran: number[] = [];
      // a standard queue: a sweep's (stately) keeps one job waiting
      await app.deps.queue.work<{ n: number }>(
        'data-export',
        async (job) => {
          ran.push(job.data.n);
        },
        { pollingIntervalSeconds: 30 },
      );
      for (const n of [1, 2, 3, 4]) await app.deps.queue.send(app.deps.db, 'data-export', { n });
      // one wake, as a request that queues a job gives; the interval alone would be 90 s more
      app.deps.queue.wake('data-export');
      const deadline = Date.now() + 5_000;
      while (ran.length < 4 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(ran).toEqual([1, 2, 3, 4]);
    } finally {
      await app.close();
    }
  });
});

describe('stopping the queue', () => {
  /** A worker whose job runs until the test lets it finish. */
  async function busyWorker(app: TestApp) {
    let finish = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let started = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const handler = () => {
      started();
      return finished;
    };
    await app.deps.queue.work('auth-purge', handler, { pollingIntervalSeconds: 0.5 });
    const id = (await app.deps.queue.send(app.deps.db, 'auth-purge', {}))!;
    const state = async () => (await jobsOf(app, 'auth-purge')).find((j) => j.id === id)!.state;
    // the job is active in the table before its worker holds it, and a stop in between would
    // find no work in progress: pg-boss calls the handler once the worker holds the job
    await running;
    expect(await state()).toBe('active');
    return { finish, state };
  }

  it('lets a running job finish when graceful', async () => {
    const app = await createTestApp();
    try {
      const job = await busyWorker(app);
      let stopped = false;
      const stopping = app.deps.queue.stop({ graceful: true }).then(() => (stopped = true));
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(stopped).toBe(false);
      job.finish();
      await stopping;
      expect(await job.state()).toBe('completed');
    } finally {
      await app.close();
    }
  });

  it('hands a running job back, to be retried, when not graceful', async () => {
    const app = await createTestApp();
    try {
      const job = await busyWorker(app);
      await app.deps.queue.stop({ graceful: false });
      expect(await job.state()).toBe('retry');
      job.finish();
    } finally {
      await app.close();
    }
  });
});

describe('queue.ready', () => {
  it("answers true on the app's database and false when the database is out of reach", async () => {
    expect(await t.deps.queue.ready()).toBe(true);
    const unreachable = await openUnreachableDatabase();
    try {
      expect(await createQueue(unreachable.db).ready()).toBe(false);
    } finally {
      await unreachable.close();
    }
  });
});

async function mobileOf(id: string) {
  return (await t.deps.db.select().from(customers).where(eq(customers.id, id)))[0]!.mobile;
}

async function jobOf(id: string) {
  return (await jobsOf(t, 'mail')).find((job) => job.id === id)!;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the queue did not get there in time');
    t.deps.queue.wake('mail');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
