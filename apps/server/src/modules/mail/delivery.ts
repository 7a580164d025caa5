import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Job } from '../../adapters/queue';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import { mailDeliveries } from './schema';
import type { MailRequest, MailTemplate, MailTemplates, RenderedMail } from './templates';

/**
 * A queued mail. Codes and reset links must not lie readable in the job table, so the request
 * is sealed with the data encryption key, bound to its Message-ID.
 */
export interface MailJob {
  messageId: string;
  sealed: string;
  /** Mail to the operator (the dead-letter digest), told apart without opening it. */
  toOperator?: true;
}

export interface EnqueueOptions {
  /** The job's id, when the sender must find the job later (a sign-in code's status). */
  jobId?: string;
  toOperator?: boolean;
}

type EnqueueDeps = Pick<AppDeps, 'queue' | 'consents' | 'config'>;
type DeliveryDeps = Pick<AppDeps, 'db' | 'mailer' | 'clock' | 'files' | 'config' | 'consents'>;

const associatedData = (messageId: string) => `mail:${messageId}`;

/** `<uuid@portal.example.in>`, in the sender's domain as RFC 5322 recommends. */
function newMessageId(mailFrom: string) {
  const domain = /@([^\s<>@]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'portal.localhost';
  return `<${randomUUID()}@${domain}>`;
}

/**
 * A mail request sealed for the queue, to be sent now (enqueueMail) or handed to work that
 * sends it once it has done its part (an issued document's PDF, stored).
 */
export function sealMail(
  deps: Pick<AppDeps, 'consents' | 'config'>,
  request: MailRequest,
  { toOperator }: Pick<EnqueueOptions, 'toOperator'> = {},
): MailJob {
  const messageId = newMessageId(deps.config.MAIL_FROM);
  const sealed = deps.consents.encryption.encrypt(
    JSON.stringify(request),
    associatedData(messageId),
  );
  return { messageId, sealed, ...(toOperator ? { toOperator: true as const } : {}) };
}

/**
 * Queues a sealed mail through `executor`: pass the open transaction of the change that causes
 * it, so that the mail exists exactly when the change commits, and is never lost nor orphaned.
 */
export async function sendSealedMail(
  executor: Executor,
  deps: Pick<AppDeps, 'queue'>,
  mail: MailJob,
  jobId?: string,
): Promise<void> {
  await deps.queue.send<MailJob>(executor, 'mail', mail, jobId ? { id: jobId } : {});
}

/** Seals and queues a mail through `executor`, as sendSealedMail does. */
export async function enqueueMail(
  executor: Executor,
  deps: EnqueueDeps,
  request: MailRequest,
  { jobId, toOperator }: EnqueueOptions = {},
): Promise<void> {
  await sendSealedMail(executor, deps, sealMail(deps, request, { toOperator }), jobId);
}

/**
 * Where a queued mail is: `sent`, `queued` (waiting for its first try, or in it), or `failing`
 * (a try failed and it waits for the next, or every try failed). A mail the queue does not know
 * (not queued by id, or long since archived) counts as queued: nothing says it failed.
 */
export type MailStatus = 'queued' | 'sent' | 'failing';

export async function mailStatus(deps: Pick<AppDeps, 'queue'>, jobId: string): Promise<MailStatus> {
  const job = await deps.queue.stateOf('mail', jobId);
  if (!job) return 'queued';
  switch (job.state) {
    case 'completed':
      return 'sent';
    case 'created':
      return 'queued';
    // a try after a failed one counts its tries
    case 'active':
      return job.retryCount > 0 ? 'failing' : 'queued';
    case 'retry':
    case 'failed':
    case 'cancelled':
      return 'failing';
  }
}

/** The mail a request names, rendered by its template. */
export async function renderMail<T extends MailTemplate>(
  deps: Pick<AppDeps, 'files' | 'config'>,
  templates: MailTemplates,
  request: MailRequest<T>,
): Promise<RenderedMail> {
  const render: MailTemplates[T] = templates[request.template];
  return render(request.data, { publicUrl: deps.config.PUBLIC_URL }, deps);
}

/**
 * Sends one queued mail, once: a mail already handed to the mail server is not sent again.
 * Throwing fails this try, and the queue tries again later with backoff.
 */
export async function deliverMail(
  deps: DeliveryDeps,
  templates: MailTemplates,
  job: MailJob,
): Promise<'sent' | 'already'> {
  const { messageId } = job;
  const [done] = await deps.db
    .select({ messageId: mailDeliveries.messageId })
    .from(mailDeliveries)
    .where(eq(mailDeliveries.messageId, messageId));
  if (done) return 'already';
  const request = JSON.parse(
    deps.consents.encryption.decrypt(job.sealed, associatedData(messageId)),
  ) as MailRequest;
  const mail = await renderMail(deps, templates, request);
  await deps.mailer.send({ to: request.to, ...mail, messageId });
  await deps.db
    .insert(mailDeliveries)
    .values({ messageId, deliveredAt: deps.clock.now() })
    .onConflictDoNothing();
  return 'sent';
}

/**
 * Runs this instance's mail worker: queued mail goes out as soon as the mail server takes it.
 * `templates` are every mail's renderers, put together at composition.
 */
export async function startMailDelivery(
  deps: DeliveryDeps & Pick<AppDeps, 'queue'>,
  templates: MailTemplates,
  options: { pollingIntervalSeconds?: number } = {},
): Promise<void> {
  // a failed try is logged by the queue, and tried again with backoff
  await deps.queue.work<MailJob>(
    'mail',
    (job: Job<MailJob>) => deliverMail(deps, templates, job.data),
    options,
  );
}
