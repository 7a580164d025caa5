import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerDateTime } from '@portal/contract';
import { QUEUE_SCHEMA, deadLetterOf } from '../adapters/queue';
import type { TestApp } from '../test/app';
import { createCustomer } from '../test/customers';
import type { ReadMail } from '../test/mail';
import { drainQueue, jobsOf } from '../test/queue';
import { appMailingThrough, createSmtpProcess, type SmtpProcess } from '../test/smtp';
import { freshIp, login, loginBody } from '../test/auth';
import { sendDeadLetterDigest } from './dead-letter-digest';

// Mail goes through a real SMTP server in its own process, which the test stops and starts; the
// portal delivers through its mail worker, as in production.
const OPERATOR = 'ops@portal.test';
let smtp: SmtpProcess;
let t: TestApp;
beforeAll(async () => {
  smtp = await createSmtpProcess();
  await smtp.start();
  t = await appMailingThrough(smtp, { OPERATOR_EMAIL: OPERATOR });
  // a sweep whose every run fails, so that each run sent to it ends in its dead letters
  await t.deps.queue.work('reminders', async () => {
    throw new Error('the reminders run failed');
  });
}, 60_000);
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Sends one run of the failing sweep and waits until it is dead-lettered. */
async function deadLetterReminders() {
  const before = (await jobsOf(t, deadLetterOf('reminders'))).length;
  expect(await t.deps.queue.send(t.deps.db, 'reminders', {}, { retryLimit: 0 })).not.toBeNull();
  await drainQueue(t, 'reminders');
  expect(await jobsOf(t, deadLetterOf('reminders'))).toHaveLength(before + 1);
}

/** A customer's sign-in code mail, failing every try while the SMTP server is down. */
async function deadLetterCodeMail() {
  const customer = await createCustomer(t);
  const before = (await jobsOf(t, deadLetterOf('mail'))).length;
  expect((await login(t, loginBody(customer), freshIp())).statusCode).toBe(200);
  await drainQueue(t, 'mail', { retriesNow: true, timeoutMs: 60_000 });
  expect(await jobsOf(t, deadLetterOf('mail'))).toHaveLength(before + 1);
  return customer;
}

/** Every mail the SMTP server has received for the operator, once queued mail has gone. */
async function operatorMail(): Promise<ReadMail[]> {
  // a mail tried while the server was down goes now, not after its backoff
  await drainQueue(t, 'mail', { retriesNow: true });
  return (await smtp.received()).filter((mail) => mail.to === OPERATOR);
}

/** When the newest dead letter of `queue` landed there, as the digest says it. */
async function newestDeadLetterAt(queue: 'mail' | 'reminders') {
  const result = await t.deps.db.execute(sql`
    SELECT max(created_on) AS at FROM ${sql.raw(QUEUE_SCHEMA)}.job
    WHERE name = ${deadLetterOf(queue)}`);
  const [row] = (result as unknown as { rows: { at: string | Date }[] }).rows;
  return `${customerDateTime(new Date(row!.at))} (India time)`;
}

describe('the dead-letter digest', () => {
  it('mails one digest per new batch of dead letters, never twice for the same ones', async () => {
    await smtp.stop();
    const customer = await deadLetterCodeMail();
    await smtp.start();
    await deadLetterReminders();
    const [mailAt, remindersAt] = [
      await newestDeadLetterAt('mail'),
      await newestDeadLetterAt('reminders'),
    ];

    expect(await sendDeadLetterDigest(t.deps)).toMatchObject({ outcome: 'queued' });
    const [first, ...more] = await operatorMail();
    expect(more).toEqual([]);
    expect(first!.subject).toBe('localhost:3000: 2 new dead-lettered jobs');
    expect(first!.text).toContain(
      [
        `reminders: 1 job new (1 in all), the oldest new one since ${remindersAt}`,
        '  npm run admin -- jobs:retry --queue reminders',
        `mail: 1 job new (1 in all), the oldest new one since ${mailAt}`,
        '  npm run admin -- jobs:retry --queue mail',
      ].join('\n'),
    );
    expect(first!.html).toContain('jobs:retry --queue reminders');
    expect(first!.html).toContain('to its operator (OPERATOR_EMAIL)');
    expect(first!.html).not.toContain('about your account');
    // counts and times only: nothing of the customer's mail, which held an address and a code
    expect(first!.text).not.toMatch(/\b\d{6}\b/);
    for (const part of [first!.text, first!.html]) expect(part).not.toContain(customer.email);

    // again: nothing new, no mail
    expect(await sendDeadLetterDigest(t.deps)).toEqual({ outcome: 'nothing new' });
    expect(await operatorMail()).toHaveLength(1);

    // one more dead letter: a digest of it alone, with the queue's total
    await deadLetterReminders();
    expect(await sendDeadLetterDigest(t.deps)).toMatchObject({ outcome: 'queued' });
    const all = await operatorMail();
    expect(all).toHaveLength(2);
    expect(all[1]!.subject).toBe('localhost:3000: 1 new dead-lettered job');
    expect(all[1]!.text).toContain(
      `reminders: 1 job new (2 in all), the oldest new one since ${await newestDeadLetterAt('reminders')}`,
    );
    expect(all[1]!.text).not.toContain('mail:');
  });

  it('sends one digest when two runs meet, and reports a job failing again as new', async () => {
    await deadLetterReminders();
    await deadLetterReminders();
    const before = (await operatorMail()).length;
    const outcomes = await Promise.all([
      sendDeadLetterDigest(t.deps),
      sendDeadLetterDigest(t.deps),
    ]);
    expect(outcomes.filter((o) => o.outcome === 'queued')).toEqual([
      {
        outcome: 'queued',
        queues: [{ queue: 'reminders', new: 2, total: 4, oldestNewAt: expect.any(String) }],
      },
    ]);
    expect(
      outcomes
        .filter((o) => o.outcome !== 'queued')
        .every((o) => ['busy', 'nothing new', 'last one waiting'].includes(o.outcome)),
    ).toBe(true);
    expect(await operatorMail()).toHaveLength(before + 1);

    // retried by the operator and failed again: new dead letters, reported anew (a sweep keeps
    // one run waiting, so the four may come back as fewer runs)
    expect(await t.deps.queue.retryFailed('reminders')).toBe(4);
    await drainQueue(t, 'reminders', { retriesNow: true });
    const again = (await jobsOf(t, deadLetterOf('reminders'))).length;
    expect(again).toBeGreaterThan(0);
    expect(await sendDeadLetterDigest(t.deps)).toMatchObject({
      outcome: 'queued',
      queues: [{ queue: 'reminders', new: again, total: again }],
    });
    expect(await operatorMail()).toHaveLength(before + 2);
  });

  it('waits behind its own undelivered digest while mail is down, and never reports it', async () => {
    const before = (await operatorMail()).length;
    await smtp.stop();
    await deadLetterReminders();
    // queued, and waiting in the mail queue like every other mail
    expect(await sendDeadLetterDigest(t.deps)).toMatchObject({ outcome: 'queued' });
    await deadLetterReminders();
    expect(await sendDeadLetterDigest(t.deps)).toEqual({ outcome: 'last one waiting' });
    const digests = async () =>
      (await jobsOf(t, 'mail')).filter((job) => job.data.toOperator === true);
    expect((await digests()).filter((job) => job.state !== 'completed')).toHaveLength(1);

    // the relay stays down past every try: the digest itself is dead-lettered
    const mailLetters = (await jobsOf(t, deadLetterOf('mail'))).length;
    await drainQueue(t, 'mail', { retriesNow: true, timeoutMs: 60_000 });
    expect(await jobsOf(t, deadLetterOf('mail'))).toHaveLength(mailLetters + 1);
    // the next digest takes what waited, and leaves its own failed mail out
    expect(await sendDeadLetterDigest(t.deps)).toMatchObject({
      outcome: 'queued',
      queues: [{ queue: 'reminders', new: 1 }],
    });

    await smtp.start();
    const arrived = await operatorMail();
    expect(arrived).toHaveLength(before + 1);
    expect(arrived.at(-1)!.text).toMatch(/^reminders: 1 job new /m);
    expect(arrived.at(-1)!.text).not.toMatch(/^mail:/m);
    // nothing is left to report: no digest of a digest
    expect(await sendDeadLetterDigest(t.deps)).toEqual({ outcome: 'nothing new' });
    expect(await operatorMail()).toHaveLength(before + 1);
  });

  it('is skipped without OPERATOR_EMAIL, leaving what is new for a later digest', async () => {
    await deadLetterReminders();
    const unset = { ...t.deps, config: { ...t.config, OPERATOR_EMAIL: undefined } };
    expect(await sendDeadLetterDigest(unset)).toEqual({ outcome: 'no operator' });
    expect(await sendDeadLetterDigest(t.deps)).toMatchObject({
      outcome: 'queued',
      queues: [{ queue: 'reminders', new: 1 }],
    });
  });
});
