// The RBI's pre-debit notice: each charge of a mandate told at least 24 hours before it.
import { and, eq, gt, inArray, isNull, lte } from 'drizzle-orm';
import {
  PRE_DEBIT_NOTICE_HOURS,
  customerDate,
  formatPaise,
  type MandateMethod,
} from '@portal/contract';
import type { AppDeps } from '../../deps';
import { HOUR_MS } from '../../lib/clock';
import { recordActivity } from '../activity/record';
import { enqueueMail } from '../mail/delivery';
import { plans } from '../plans/schema';
import { remindersSent } from '../reminders/schema';
import { findCustomerById } from '../users/service';
import { autoRenewals } from './schema';

/** A notice goes within this many hours of its charge, and no later than the RBI's least. */
const NOTICE_WINDOW_HOURS = 2 * PRE_DEBIT_NOTICE_HOURS;

/** Notices handled per statement; a run reads batches until none is left. */
const NOTICE_BATCH = 500;

type Deps = Pick<AppDeps, 'db' | 'clock' | 'queue' | 'consents' | 'config'>;

/** The charges coming up that may be told now: more than 24 hours ahead, within 48. */
function chargesDue(deps: Deps, now: Date) {
  return deps.db
    .select({ renewal: autoRenewals, planName: plans.planName })
    .from(autoRenewals)
    .innerJoin(plans, eq(plans.id, autoRenewals.planId))
    .where(
      and(
        isNull(autoRenewals.endedAt),
        eq(autoRenewals.endsAtCycleEnd, false),
        inArray(autoRenewals.gatewayStatus, ['authenticated', 'active']),
        gt(autoRenewals.chargeAt, new Date(now.getTime() + PRE_DEBIT_NOTICE_HOURS * HOUR_MS)),
        lte(autoRenewals.chargeAt, new Date(now.getTime() + NOTICE_WINDOW_HOURS * HOUR_MS)),
      ),
    )
    .orderBy(autoRenewals.chargeAt, autoRenewals.id)
    .limit(NOTICE_BATCH);
}

/**
 * Sends every pre-debit notice due: a mail and the bell, once per charge (its key, the renewal
 * and the charge's time, is taken in the same transaction), whatever the customer's reminder
 * preferences, because the mandate's rules require it. Answers how many it sent.
 */
export async function sendPreDebitNotices(deps: Deps): Promise<number> {
  const { db, clock } = deps;
  const now = clock.now();
  let sent = 0;
  for (;;) {
    const due = await chargesDue(deps, now);
    let fresh = 0;
    for (const { renewal, planName } of due) {
      const chargeAt = renewal.chargeAt!;
      const told = await db.transaction(async (tx) => {
        const [claimed] = await tx
          .insert(remindersSent)
          .values({
            customerId: renewal.customerId,
            subject: `pre-debit:${renewal.id}:${chargeAt.toISOString()}`,
            thresholdDays: 1,
            sentAt: now,
          })
          .onConflictDoNothing()
          .returning({ customerId: remindersSent.customerId });
        if (!claimed) return false;
        const customer = await findCustomerById(tx, renewal.customerId);
        if (!customer) return false;
        await recordActivity(tx, clock, {
          customerId: renewal.customerId,
          type: 'pre_debit_notice',
          title: `${formatPaise(renewal.amountPaise)} will be debited on ${customerDate(chargeAt)}`,
          description: `Your ${planName} plan renews automatically. Turn auto-renewal off before then to stop the debit.`,
          status: 'pending',
          details: { planId: renewal.planId },
        });
        await enqueueMail(tx, deps, {
          template: 'auto-renewal',
          to: customer.email,
          data: {
            about: 'pre-debit',
            companyName: customer.companyName,
            planName,
            amountPaise: renewal.amountPaise,
            chargeAt: chargeAt.toISOString(),
            method: renewal.method as MandateMethod | null,
          },
        });
        return true;
      });
      if (told) {
        sent += 1;
        fresh += 1;
      }
    }
    // a batch of charges told already reads the same batch again: stop there
    if (due.length < NOTICE_BATCH || fresh === 0) return sent;
  }
}
