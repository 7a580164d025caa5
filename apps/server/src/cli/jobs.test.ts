import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadLetterOf } from '../adapters/queue';
import { createTestApp, type TestApp } from '../test/app';
import { drainQueue, jobsOf } from '../test/queue';
import { CliError } from './command';
import { jobCommands } from './jobs';
import { printedBy } from './test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function run(name: string, args: string[]) {
  const { out } = await printedBy(() => jobCommands[name]!.run(args, t.deps));
  return out;
}

const statusOf = async (queue: string) =>
  (await run('jobs:status', [])).find((line) => line.startsWith(`${queue} `));

describe('jobs CLI', () => {
  it('shows each queue, and puts the failed jobs of one back on it', async () => {
    // one mail that fails its only try, then two waiting with no worker running
    await t.deps.queue.work('mail', async () => {
      throw new Error('SMTP refused');
    });
    await t.deps.queue.send(t.deps.db, 'mail', { to: 'lost' }, { retryLimit: 0 });
    await drainQueue(t, 'mail');
    await t.deps.queue.stop();
    const before = new Date(Date.now() - 1000);
    await t.deps.queue.send(t.deps.db, 'mail', { to: 'a' });
    await t.deps.queue.send(t.deps.db, 'mail', { to: 'b' });

    const lines = await run('jobs:status', []);
    expect(lines.map((line) => line.split(' ')[0])).toEqual([
      'payment-reconcile',
      'auth-purge',
      'consent-expiry',
      'reminders',
      'mail',
      'document-draw',
      'data-export',
      'data-export-purge',
      'mail-purge',
      'dead-letter-digest',
      'audit-purge',
      'closed-account-purge',
    ]);
    expect(await statusOf('auth-purge')).toMatch(
      /^auth-purge +queued 0 {2}active 0 {2}failed 0 {2}none waiting$/,
    );
    const mail = await statusOf('mail');
    expect(mail).toMatch(/^mail +queued 2 {2}active 0 {2}failed 1 {2}oldest waiting since \S+Z$/);
    const since = new Date(mail!.split('since ')[1]!);
    expect(since.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(since.getTime()).toBeLessThanOrEqual(Date.now());

    expect(await run('jobs:retry', ['--queue', 'mail'])).toEqual([
      '1 failed job of mail queued again.',
    ]);
    expect(await statusOf('mail')).toMatch(/queued 3 {2}active 0 {2}failed 0 /);
    // the failed mail goes back as a new job, after those already waiting
    expect(
      (await jobsOf(t, 'mail')).filter((job) => job.state === 'created').map((job) => job.data),
    ).toEqual([{ to: 'a' }, { to: 'b' }, { to: 'lost' }]);
    expect(await jobsOf(t, deadLetterOf('mail'))).toEqual([]);
    expect(await run('jobs:retry', ['--queue', 'mail'])).toEqual(['No failed jobs in mail.']);
  });

  it('refuses an unknown queue, a missing one and an unknown option, changing nothing', async () => {
    await expect(run('jobs:retry', ['--queue', 'sms'])).rejects.toThrow(
      new CliError(
        'Unknown queue "sms": one of payment-reconcile, auth-purge, consent-expiry, reminders, mail, document-draw, data-export, data-export-purge, mail-purge, dead-letter-digest, audit-purge, closed-account-purge',
      ),
    );
    await expect(run('jobs:retry', [])).rejects.toThrow('--queue is required');
    await expect(run('jobs:status', ['--all'])).rejects.toThrow(CliError);
  });
});
