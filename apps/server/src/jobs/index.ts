import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps';
import { startConsentExpirySweep } from '../modules/consents/expiry';
import { startAuthPurge } from './purge-expired-auth';
import { startPaymentReconciliation } from './reconcile-payments';

export interface BackgroundJobs {
  /** Takes no new work and waits for the work in progress. */
  stop(): Promise<void>;
}

/** Every job an instance of the portal runs beside its requests. */
export function startBackgroundJobs(deps: AppDeps, log: FastifyBaseLogger): BackgroundJobs {
  const { config } = deps;
  const jobs = [
    startPaymentReconciliation(deps, log, config.PAYMENT_RECONCILE_MINUTES),
    startAuthPurge(deps, log, config.AUTH_PURGE_MINUTES),
    startConsentExpirySweep(deps, log, config.CONSENT_EXPIRY_MINUTES),
  ];
  return {
    async stop() {
      await Promise.all(jobs.map((job) => job.stop()));
    },
  };
}
