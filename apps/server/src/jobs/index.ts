import type { FastifyBaseLogger } from 'fastify';
import type { JobName } from '../adapters/queue';
import type { Config } from '../config';
import type { AppDeps } from '../deps';
import { runAuditPurge } from '../modules/audit/retention';
import { runConsentExpirySweep } from '../modules/consents/expiry';
import { mailTemplates } from '../mail-templates';
import { startDocumentDrawing } from '../modules/invoices/draw';
import { startMailDelivery } from '../modules/mail/delivery';
import { runMailPurge } from '../modules/mail/purge';
import { runClosedAccountPurge } from '../modules/privacy/closed-account-purge';
import {
  purgeExpiredDataExports,
  runDataExportJob,
  type DataExportJob,
} from '../modules/privacy/data-export';
import { runDeadLetterDigest } from './dead-letter-digest';
import { runAuthPurge } from './purge-expired-auth';
import { runPaymentReconciliation } from './reconcile-payments';
import { runReminders } from './send-reminders';
import { cronEvery } from './schedule';

export interface BackgroundJobs {
  /** Takes no new work and waits for the work in progress. */
  stop(): Promise<void>;
}

interface ScheduledJob {
  name: JobName;
  /** The setting of how many minutes apart it runs; 0 turns it off. */
  every: keyof Pick<
    Config,
    | 'PAYMENT_RECONCILE_MINUTES'
    | 'AUTH_PURGE_MINUTES'
    | 'CONSENT_EXPIRY_MINUTES'
    | 'REMINDER_MINUTES'
    | 'DATA_EXPORT_PURGE_MINUTES'
    | 'MAIL_PURGE_MINUTES'
    | 'CLOSED_ACCOUNT_PURGE_MINUTES'
    | 'AUDIT_PURGE_MINUTES'
    | 'DEAD_LETTER_DIGEST_MINUTES'
  >;
  run(deps: AppDeps, log: FastifyBaseLogger): Promise<void>;
}

/** The jobs run on a schedule; their retries and dead letters are in adapters/queue-install.ts. */
export const SCHEDULED_JOBS: ScheduledJob[] = [
  { name: 'payment-reconcile', every: 'PAYMENT_RECONCILE_MINUTES', run: runPaymentReconciliation },
  { name: 'auth-purge', every: 'AUTH_PURGE_MINUTES', run: runAuthPurge },
  { name: 'consent-expiry', every: 'CONSENT_EXPIRY_MINUTES', run: runConsentExpirySweep },
  { name: 'reminders', every: 'REMINDER_MINUTES', run: runReminders },
  {
    name: 'data-export-purge',
    every: 'DATA_EXPORT_PURGE_MINUTES',
    run: async (deps) => {
      await purgeExpiredDataExports(deps);
    },
  },
  { name: 'mail-purge', every: 'MAIL_PURGE_MINUTES', run: runMailPurge },
  {
    name: 'closed-account-purge',
    every: 'CLOSED_ACCOUNT_PURGE_MINUTES',
    run: runClosedAccountPurge,
  },
  { name: 'audit-purge', every: 'AUDIT_PURGE_MINUTES', run: runAuditPurge },
  { name: 'dead-letter-digest', every: 'DEAD_LETTER_DIGEST_MINUTES', run: runDeadLetterDigest },
];

/**
 * Starts this instance's mail delivery and the workers of the scheduled jobs, and (re)writes the
 * schedules kept in the database: of all
 * instances, one sends each due run and one worker runs it. A job turned off (0) is unscheduled
 * for every instance, so the setting must be the same on all of them.
 */
async function scheduleJobs(deps: AppDeps, log: FastifyBaseLogger) {
  // every instance delivers queued mail, draws issued documents and prepares asked-for data,
  // whatever the schedules
  await startMailDelivery(deps, mailTemplates);
  await startDocumentDrawing(deps);
  await deps.queue.work<DataExportJob>('data-export', (job) => runDataExportJob(deps, job));
  for (const job of SCHEDULED_JOBS) {
    const minutes = deps.config[job.every];
    if (minutes <= 0) {
      await deps.queue.unschedule(job.name);
      continue;
    }
    // a scheduled run need not start within seconds: idle workers look rarely (a few short
    // queries less each second, which count on the single connection of PGlite)
    await deps.queue.work(job.name, () => job.run(deps, log), { pollingIntervalSeconds: 15 });
    await deps.queue.schedule(job.name, cronEvery(minutes));
    // a first run catches up on what happened while no instance ran; one already waiting
    // makes this one a no-op (the queue keeps one waiting run of a sweep)
    await deps.queue.send(deps.db, job.name, {});
  }
}

/** Every job an instance of the portal runs beside its requests. */
export function startBackgroundJobs(deps: AppDeps, log: FastifyBaseLogger): BackgroundJobs {
  deps.queue.logTo(log);
  // the instance is not ready until its workers run, nor once they have failed or stopped
  deps.queue.workers = 'starting';
  const starting = scheduleJobs(deps, log).then(
    () => {
      deps.queue.workers = 'running';
    },
    (error: unknown) => {
      deps.queue.workers = 'not running';
      log.error({ err: error }, 'background jobs did not start');
    },
  );
  return {
    async stop() {
      await starting;
      deps.queue.workers = 'not running';
      await deps.queue.stop({ graceful: true });
    },
  };
}
