import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths } from '@portal/contract';
import type { DatabaseHandle } from '../../db/client';
import { createTestApp, type TestApp } from '../../test/app';
import { createCustomer } from '../../test/customers';
import { openTestDatabase } from '../../test/database';
import { watchedDatabase } from '../../test/watched-database';
import { jobsOf } from '../../test/queue';
import { mailResetLink } from './passwords';
import { passwordResetTokens } from './schema';
import { freshIp, requestResetLink, unreachableMailer, waitForMailCount } from '../../test/auth';

let database: DatabaseHandle;
let watched: ReturnType<typeof watchedDatabase>;
let t: TestApp;
beforeAll(async () => {
  database = await openTestDatabase();
  watched = watchedDatabase(database.db);
  // the test reads what happened before the answer, and what after
  t = await createTestApp({ deps: { db: watched.db }, settleAfterAnswers: false });
});
afterAll(async () => {
  await t.close();
  await database.close();
});

const forgot = (email: string) => requestResetLink(t, email);

/** The answer, and the queries started by the time it arrived. */
async function answerTo(email: string) {
  watched.started.length = 0;
  const res = await forgot(email);
  return { status: res.statusCode, body: res.json(), queries: [...watched.started] };
}

const tokensOf = (customerId: string) =>
  database.db
    .select()
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.customerId, customerId));

describe('POST /api/users/forgot-password', () => {
  it('answers before it looks the address up, the same way whether or not an account has it', async () => {
    const customer = await createCustomer(t);
    const mailsBefore = (await t.outbox()).length;
    const open = watched.closeGate();

    const known = await answerTo(customer.email);
    const unknown = await answerTo('nobody-at-all@example.test');
    expect(known.status).toBe(200);
    expect(known.body).toEqual({
      success: true,
      message: 'If an account exists for that e-mail, a reset link has been sent.',
    });
    expect(unknown).toEqual(known);
    // before the answer, no look-up: only the count per client address
    expect(known.queries).not.toContain('select');
    // the account's work is held at the gate: nothing of it has happened yet
    expect(await tokensOf(customer.id)).toHaveLength(0);
    expect(await t.outbox()).toHaveLength(mailsBefore);

    open();
    const mail = (await waitForMailCount(t, mailsBefore + 1)).at(-1)!;
    expect(mail.subject).toBe('Reset your password');
    expect(mail.to).toContain(customer.email);
    expect(await tokensOf(customer.id)).toHaveLength(1);
  });

  it('issues one link when requests for one account arrive together', async () => {
    const customer = await createCustomer(t);
    const mailsBefore = (await t.outbox()).length;
    const open = watched.closeGate();
    watched.transactions.length = 0;
    const answers = await Promise.all(Array.from({ length: 10 }, () => forgot(customer.email)));
    expect(answers.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
    open();
    await Promise.all(watched.transactions);
    expect(await tokensOf(customer.id)).toHaveLength(1);
    await waitForMailCount(t, mailsBefore + 1);
  });

  it('answers as usual while mail cannot be sent, with the link kept in the mail queue', async () => {
    const down = await createTestApp({ deps: { mailer: unreachableMailer() } });
    try {
      const customer = await createCustomer(down);
      const res = await requestResetLink(down, customer.email);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(
        'If an account exists for that e-mail, a reset link has been sent.',
      );
      // the link is issued after the answer
      await expect
        .poll(async () => (await jobsOf(down, 'mail')).length, { timeout: 10_000 })
        .toBe(1);
      const mails = await jobsOf(down, 'mail');
      expect(mails[0]!.state).not.toBe('completed');
    } finally {
      await down.close();
    }
  });

  it('mails nothing for a request it refuses as one too many', async () => {
    const customer = await createCustomer(t);
    const ip = freshIp();
    const ask = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: authPaths.forgotPassword,
        payload: { email },
        remoteAddress: ip,
      });
    for (let i = 0; i < 10; i += 1) {
      expect((await ask('nobody-at-all@example.test')).statusCode).toBe(200);
    }
    const transactionsBefore = watched.transactions.length;
    expect((await ask(customer.email)).statusCode).toBe(429);
    await Promise.all(watched.transactions);
    expect(watched.transactions).toHaveLength(transactionsBefore);
    expect(await tokensOf(customer.id)).toHaveLength(0);
  });

  it('lets the app close only after the link it began to issue is out', async () => {
    const app = await createTestApp({ deps: { db: watched.db }, settleAfterAnswers: false });
    const customer = await createCustomer(app);
    const open = watched.closeGate();
    const res = await requestResetLink(app, customer.email);
    expect(res.statusCode).toBe(200);
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closed).toBe(false);
    open();
    await closing;
    expect(await tokensOf(customer.id)).toHaveLength(1);
  });

  it('logs why a link could not be issued, and never throws after the answer', async () => {
    const customer = await createCustomer(t);
    const warned: [unknown, string][] = [];
    const log = { warn: (fields: unknown, message: string) => warned.push([fields, message]) };
    const failing = {
      ...t.deps,
      db: Object.assign(Object.create(t.deps.db) as typeof t.deps.db, {
        transaction: () => Promise.reject(new Error('the database went away')),
      }),
    };
    await expect(mailResetLink(failing, log as never, customer.email)).resolves.toBeUndefined();
    expect(warned).toEqual([[{ reason: 'the database went away' }, 'reset link failed']]);
    expect(await tokensOf(customer.id)).toEqual([]);
  });
});
