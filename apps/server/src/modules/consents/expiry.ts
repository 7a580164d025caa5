// The stored side of consent expiry (docs/decisions/028-keyset-pages-and-counters.md): reads
// show a live consent past its expiry time as Expired at once; this sweep stores it, with its
// activity event, in one transaction in which the counters' trigger moves it between statuses.
import { and, inArray, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps';
import { whileHoldingJobLock } from '../../db/job-lock';
import { expireDueConsents, type ExpiryDeps } from './customer-consents';
import { build, DUE, run, type ConsentReadDeps } from './read-statements';
import { consents } from './schema';

/** Customers a pass stores expiries for: a pass stays short, the next one goes on. */
export const EXPIRY_SWEEP_CUSTOMERS = 200;

/**
 * Stores the expiry of every live consent past its expiry time, customer by customer. Several
 * instances may run it at once; one does the work and the others answer 0.
 */
export async function sweepExpiredConsents(
  deps: Pick<AppDeps, 'db'> & ExpiryDeps,
): Promise<number> {
  const { db, clock } = deps;
  const stored = await whileHoldingJobLock(db, 'consent-expiry', async (tx) => {
    const due = await tx
      .selectDistinct({ customerId: consents.customerId })
      .from(consents)
      .where(
        and(
          inArray(consents.status, ['Pending', 'Approved']),
          lte(consents.expiresAt, clock.now()),
        ),
      )
      .limit(EXPIRY_SWEEP_CUSTOMERS);
    let n = 0;
    for (const { customerId } of due) n += await expireDueConsents(tx, deps, customerId);
    return n;
  });
  return stored ?? 0;
}

/** One run of the consent-expiry job. */
export async function runConsentExpirySweep(
  deps: Pick<AppDeps, 'db'> & ExpiryDeps,
  log: FastifyBaseLogger,
) {
  const stored = await sweepExpiredConsents(deps);
  if (stored > 0) log.info({ stored }, 'consent expiries stored');
}

const DUE_PROBE = build(
  'consents_due_probe',
  (p) =>
    `SELECT EXISTS (SELECT 1 FROM consents c WHERE c.customer_id = ${p('customer')} AND ${DUE('c', p)}) AS due`,
);

/**
 * Stores the expiry of the customer's consents past their expiry time, with their activity, when
 * there are any: a probe on the index first, so that the usual read writes nothing.
 */
export async function storeDueExpiries(deps: ConsentReadDeps, customerId: string) {
  const { clock } = deps;
  const [probe] = await run<{ due: boolean }>(deps, DUE_PROBE, {
    customer: customerId,
    now: clock.now(),
  });
  if (!probe?.due) return 0;
  return deps.db.transaction((tx) => expireDueConsents(tx, deps, customerId));
}
