import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { JOB_NAMES, QUEUE_SCHEMA, deadLetterOf } from '../adapters/queue';
import type { AppDeps } from '../deps';
import type { DeadLetterDigestData } from '../modules/mail/dead-letter-digest';
import { enqueueMail } from '../modules/mail/delivery';
import { whileHoldingJobLock } from '../db/job-lock';

const JOBS = sql.raw(`${QUEUE_SCHEMA}.job`);
/** Each dead-letter queue, by the queue whose jobs land in it. */
const QUEUE_OF_DEAD_LETTERS = new Map(JOB_NAMES.map((name) => [deadLetterOf(name), name]));
/** A digest's own mail, as the mail queue holds it (see MailJob). */
const OPERATOR_MAIL = sql`${JSON.stringify({ toOperator: true })}::jsonb`;

export type DigestOutcome =
  /** One mail queued to OPERATOR_EMAIL, for these queues. */
  | { outcome: 'queued'; queues: DeadLetterDigestData['queues'] }
  | { outcome: 'nothing new' }
  /** The last digest is not delivered yet: what is new waits for the next. */
  | { outcome: 'last one waiting' }
  | { outcome: 'no operator' }
  /** Another run holds the digest at this moment. */
  | { outcome: 'busy' };

interface ClaimedRow {
  name: string;
  fresh: number;
  total: number;
  oldest: string | Date;
}

/**
 * Mails OPERATOR_EMAIL one digest of the jobs dead-lettered since the last digest: per queue, how
 * many, since when, and the command that retries them; never a job's data or error.
 *
 * What was reported is remembered on the dead letters themselves, in pg-boss's `output` of each
 * (beside the error kept there), marked in the transaction that queues the digest: the mark and
 * the mail commit together or not at all, and a dead letter is marked once however many runs
 * meet. A retried job that fails again is a new dead letter, and reported again.
 *
 * The digest is mail like any other, so it waits in the mail queue when the relay is down. While
 * one waits, no other is queued; one that fails every try is left out of the next digest, which
 * would otherwise report its own failure for ever.
 */
export async function sendDeadLetterDigest(
  deps: Pick<AppDeps, 'db' | 'queue' | 'config' | 'consents'>,
): Promise<DigestOutcome> {
  const to = deps.config.OPERATOR_EMAIL;
  if (!to) return { outcome: 'no operator' };
  const done = await whileHoldingJobLock(
    deps.db,
    'dead-letter-digest',
    async (tx): Promise<DigestOutcome> => {
      const waiting = await tx.execute(sql`
        SELECT 1 FROM ${JOBS}
        WHERE name = 'mail' AND state < 'completed' AND data @> ${OPERATOR_MAIL} LIMIT 1`);
      if ((waiting as unknown as { rows: unknown[] }).rows.length > 0) {
        return { outcome: 'last one waiting' };
      }
      // the totals are read before the marks are written, which change no count
      const claimed = await tx.execute(sql`
        WITH claimed AS (
          UPDATE ${JOBS}
          SET output = coalesce(output, '{}'::jsonb) || jsonb_build_object('digestedAt', now())
          WHERE name = ANY(${sql.param([...QUEUE_OF_DEAD_LETTERS.keys()])}::text[])
            AND state < 'active'
            AND output->>'digestedAt' IS NULL
            AND NOT (name = ${deadLetterOf('mail')} AND data @> ${OPERATOR_MAIL})
          RETURNING name, created_on
        )
        SELECT claimed.name, count(*)::int AS fresh, min(claimed.created_on) AS oldest,
          (SELECT count(*)::int FROM ${JOBS} letter
            WHERE letter.name = claimed.name AND letter.state < 'active') AS total
        FROM claimed GROUP BY claimed.name`);
      const rows = (claimed as unknown as { rows: ClaimedRow[] }).rows;
      if (rows.length === 0) return { outcome: 'nothing new' };
      const byName = new Map(rows.map((row) => [row.name, row]));
      const queues = JOB_NAMES.flatMap((queue) => {
        const row = byName.get(deadLetterOf(queue));
        if (!row) return [];
        const oldestNewAt = new Date(row.oldest).toISOString();
        return [{ queue, new: Number(row.fresh), total: Number(row.total), oldestNewAt }];
      });
      await enqueueMail(
        tx,
        deps,
        { template: 'dead-letter-digest', to, data: { queues } },
        { toOperator: true },
      );
      return { outcome: 'queued', queues };
    },
  );
  if (!done) return { outcome: 'busy' };
  if (done.outcome === 'queued') deps.queue.wake('mail');
  return done;
}

/** One run of the dead-letter-digest job. */
export async function runDeadLetterDigest(deps: AppDeps, log: FastifyBaseLogger) {
  const done = await sendDeadLetterDigest(deps);
  if (done.outcome === 'queued') {
    log.info({ queues: done.queues }, 'dead-letter digest queued for the operator');
  } else if (done.outcome === 'last one waiting') {
    log.info('dead-letter digest held: the last one is not delivered yet');
  }
}
