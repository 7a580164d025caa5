import { indiaTime } from './format';
import { renderLayout } from './layout';
import type { MailContext, RenderedMail } from './rendered';

/**
 * What the operator's digest of new dead letters is made from: counts and times per queue, never
 * a job's data or error (a mail job's data holds addresses and codes).
 */
export interface DeadLetterDigestData {
  queues: {
    queue: string;
    /** Dead letters no digest has reported before. */
    new: number;
    /** Every dead letter of the queue now: what a retry of the queue puts back. */
    total: number;
    /** When the oldest of the new ones failed its last try. */
    oldestNewAt: string;
  }[];
}

const jobs = (n: number) => `${n} ${n === 1 ? 'job' : 'jobs'}`;
const retryCommand = (queue: string) => `npm run admin -- jobs:retry --queue ${queue}`;

/** `portal.example.in: 3 new dead-lettered jobs`: which installation, and how many. */
export function deadLetterDigestSubject(data: DeadLetterDigestData, publicUrl: string) {
  const count = data.queues.reduce((sum, queue) => sum + queue.new, 0);
  return `${new URL(publicUrl).host}: ${count} new dead-lettered ${count === 1 ? 'job' : 'jobs'}`;
}

export async function deadLetterDigestMail(
  data: DeadLetterDigestData,
  ctx: MailContext,
): Promise<RenderedMail> {
  const subject = deadLetterDigestSubject(data, ctx.publicUrl);
  const what =
    'Since the last digest, these jobs failed every try and now wait in the dead letters of their queue.';
  const perQueue = data.queues.map(({ queue, new: fresh, total, oldestNewAt }) => ({
    queue,
    line: `${jobs(fresh)} new (${total} in all), the oldest new one since ${indiaTime(oldestNewAt)}`,
    retry: retryCommand(queue),
  }));
  const cause =
    'Find the cause in the "job failed" log lines of the queue and fix it (the SMTP relay, the file store, the gateway) before retrying: a retry puts every dead letter of the queue back, with fresh tries. "npm run admin -- jobs:status" shows every queue.';
  const runbook = 'Runbook: docs/operations.md, "PortalDeadLetters".';
  return {
    subject,
    text: [
      what,
      '',
      ...perQueue.flatMap(({ queue, line, retry }) => [`${queue}: ${line}`, `  ${retry}`]),
      '',
      cause,
      runbook,
    ].join('\n'),
    html: await renderLayout({
      subject,
      preview: what,
      heading: 'New dead letters',
      paragraphs: [what],
      facts: perQueue.map(({ queue, line, retry }) => [queue, `${line}. Retry: ${retry}`]),
      notes: [cause, runbook],
      publicUrl: ctx.publicUrl,
      toOperator: true,
    }),
  };
}
