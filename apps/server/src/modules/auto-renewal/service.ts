// Turning auto-renewal on and off, and the customer's view of it (decision 084).
import { and, eq, isNull } from 'drizzle-orm';
import {
  autoRenewalMessages,
  formatPaise,
  orderAmount,
  type AutoRenewal,
  type MandateMethod,
  type StartAutoRenewalRequest,
} from '@portal/contract';
import type { Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/sql-state';
import {
  jsonInstant,
  runSessionRead,
  sessionReadText,
  type SessionAuth,
  type SessionColumns,
  type UnrevokedSession,
} from '../../db/session-read';
import type { Statement } from '../../db/statements';
import type { AppDeps } from '../../deps';
import type { GatewaySubscription } from '../../adapters/payment-gateway-subscriptions';
import { AppError } from '../../lib/errors';
import { recordActivity } from '../activity/record';
import { latestPlanEnd } from '../plans/current-plan';
import { plans } from '../plans/schema';
import { offeredPlan } from '../plans/service';
import {
  AUTHORISATION_WINDOW_MS,
  columnsOf,
  statusOf,
  syncFromGateway,
  writeGatewayState,
} from './gateway-state';
import { gatewayPlanFor } from './gateway-plans';
import { autoRenewals, type AutoRenewalRow } from './schema';

/** Cycles a subscription runs for: about ten years of the plan, within Razorpay's limits. */
const cyclesFor = (durationDays: number) =>
  Math.min(100, Math.max(1, Math.floor((10 * 365) / durationDays)));

const unix = (at: Date) => Math.floor(at.getTime() / 1000);

/** A gateway that did not answer, or refused: the customer can try again, nothing changed. */
async function atGateway<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('BAD_GATEWAY', autoRenewalMessages.gatewayAway, (error as Error).message);
  }
}

/** The customer's auto-renewal that has not ended, if any. */
async function liveRenewal(db: Executor, customerId: string) {
  const [row] = await db
    .select()
    .from(autoRenewals)
    .where(and(eq(autoRenewals.customerId, customerId), isNull(autoRenewals.endedAt)));
  return row ?? null;
}

interface ShownRenewal {
  gatewayStatus: string;
  endsAtCycleEnd: boolean;
  planId: string;
  planName: string;
  method: string | null;
  amountPaise: number;
  chargeAt: string | null;
  authoriseUrl: string;
}

function toAutoRenewal(row: ShownRenewal, planEndsAt: string | null): AutoRenewal {
  const status = statusOf(row);
  return {
    status,
    planId: row.planId,
    planName: row.planName,
    method: row.method as MandateMethod | null,
    maxAmount: row.amountPaise / 100,
    nextChargeDate: status === 'on' ? row.chargeAt : null,
    nextChargeAmount: row.amountPaise / 100,
    planEndDate: planEndsAt,
    authoriseUrl: ['authorising', 'retrying', 'halted'].includes(status) ? row.authoriseUrl : null,
  };
}

/**
 * The screen's statement: the customer's live auto-renewal with its plan's name, and the end of
 * the last period paid for, beside the request's session. $1 the session, $2 the customer, $3 now.
 */
const renewalScreen: Statement = {
  name: 'auto_renewal_screen',
  text: sessionReadText(`(SELECT json_build_object('gatewayStatus', r.gateway_status,
      'endsAtCycleEnd', r.ends_at_cycle_end, 'planId', r.plan_id, 'planName', p.plan_name,
      'method', r.method, 'amountPaise', r.amount_paise,
      'chargeAt', ${jsonInstant('r.charge_at')}, 'authoriseUrl', r.authorise_url)
    FROM auto_renewals r JOIN plans p ON p.id = r.plan_id
    WHERE r.customer_id = $2::uuid AND r.ended_at IS NULL) AS "renewal",
  (SELECT ${jsonInstant('max(cp.ends_at)')} FROM customer_plans cp
    WHERE cp.customer_id = $2::uuid AND cp.ends_at > $3::timestamptz) AS "planEndsAt"`),
};

interface RenewalScreenRow extends SessionColumns {
  renewal: ShownRenewal | null;
  planEndsAt: string | null;
}

export async function readAutoRenewal(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  auth: SessionAuth,
): Promise<{ renewal: AutoRenewal | null; session: UnrevokedSession | undefined }> {
  const { row, session } = await runSessionRead<RenewalScreenRow>(deps.db, auth, renewalScreen, [
    deps.clock.now().toISOString(),
  ]);
  return {
    renewal: row?.renewal ? toAutoRenewal(row.renewal, row.planEndsAt) : null,
    session,
  };
}

/** The customer's live auto-renewal as the answers show it, read on its own. */
async function viewOf(deps: Pick<AppDeps, 'db' | 'clock'>, customerId: string) {
  const row = await liveRenewal(deps.db, customerId);
  if (!row) return null;
  const [plan] = await deps.db
    .select({ name: plans.planName })
    .from(plans)
    .where(eq(plans.id, row.planId));
  const planEndsAt = await latestPlanEnd(deps.db, customerId, deps.clock.now());
  return toAutoRenewal(
    { ...row, planName: plan!.name, chargeAt: row.chargeAt?.toISOString() ?? null },
    planEndsAt?.toISOString() ?? null,
  );
}

/**
 * Cancels a renewal's subscription at the gateway now and writes what the gateway then says.
 * A refused cancel is not taken as failure: the subscription may have expired or ended
 * meanwhile, or been authorised, and the gateway's own answer decides. Anything but an ended
 * renewal is refused with `refusal`.
 */
async function cancelNow(deps: AppDeps, row: AutoRenewalRow, refusal: AppError) {
  const cancelled = await deps.payments.gateway
    .cancelSubscription(row.subscriptionId, { atCycleEnd: false })
    .catch(() => null);
  const state =
    cancelled ??
    (await atGateway(() => deps.payments.gateway.fetchSubscription(row.subscriptionId)));
  const written = await writeGatewayState(deps.db, deps, state, deps.clock.now());
  if (!written?.endedAt) throw refusal;
}

/**
 * Sets up auto-renewal of a plan on offer: a subscription at the gateway that starts where the
 * customer's plan ends (or at once, for a customer with no plan), waiting for the customer to
 * authorise its mandate on the gateway's page. Asked again for the same plan before the
 * mandate is authorised, it answers the same; an authorised one must be turned off first.
 */
export async function startAutoRenewal(
  deps: AppDeps,
  customerId: string,
  input: StartAutoRenewalRequest,
): Promise<AutoRenewal> {
  const { db, clock, payments } = deps;
  const plan = await offeredPlan(db, input.planId);
  const amountPaise = orderAmount(plan.amountPaise).totalPaise;
  const live = await liveRenewal(db, customerId);
  if (live) {
    if (live.gatewayStatus !== 'created')
      throw new AppError('CONFLICT', autoRenewalMessages.alreadyOn);
    if (live.planId === plan.id && live.amountPaise === amountPaise)
      return (await viewOf(deps, customerId))!;
    await cancelNow(deps, live, new AppError('CONFLICT', autoRenewalMessages.alreadyOn));
  }
  const gatewayPlanId = await atGateway(() => gatewayPlanFor(deps, plan, amountPaise));
  const now = clock.now();
  const planEnd = await latestPlanEnd(db, customerId, now);
  const subscription: GatewaySubscription = await atGateway(() =>
    payments.gateway.createSubscription({
      planId: gatewayPlanId,
      totalCount: cyclesFor(plan.durationDays),
      startAt: planEnd ? unix(planEnd) : undefined,
      expireBy: unix(new Date(now.getTime() + AUTHORISATION_WINDOW_MS)),
      customerNotify: false,
      notes: { customer_id: customerId, plan_id: plan.id },
    }),
  );
  try {
    await db.insert(autoRenewals).values({
      customerId,
      planId: plan.id,
      subscriptionId: subscription.id,
      amountPaise,
      ...columnsOf(subscription, now),
      chargeAt: planEnd,
      syncedAt: now,
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // another request set one up first: this subscription is not needed
    await payments.gateway
      .cancelSubscription(subscription.id, { atCycleEnd: false })
      .catch(() => null);
    const kept = await liveRenewal(db, customerId);
    if (kept?.gatewayStatus !== 'created' || kept.planId !== plan.id) {
      throw new AppError('CONFLICT', autoRenewalMessages.alreadyOn);
    }
  }
  return (await viewOf(deps, customerId))!;
}

/**
 * Turns auto-renewal off. An authorised subscription in good standing is cancelled at the end of
 * its cycle, so the period paid for runs out and nothing more is charged; any other is
 * cancelled now. Answers what is left: the renewal ending, or null.
 */
export async function stopAutoRenewal(
  deps: AppDeps,
  customerId: string,
): Promise<AutoRenewal | null> {
  const { db, clock, payments } = deps;
  const live = await liveRenewal(db, customerId);
  if (!live) throw new AppError('NOT_FOUND', autoRenewalMessages.notOn);
  // turned off already: it ends with its cycle
  if (live.endsAtCycleEnd) return viewOf(deps, customerId);
  const atCycleEnd = live.gatewayStatus === 'active';
  const cancelled = await payments.gateway
    .cancelSubscription(live.subscriptionId, { atCycleEnd })
    .catch(() => null);
  if (!cancelled) {
    // refused: a concurrent request may have cancelled it; what the gateway says decides
    const now = await atGateway(() => syncFromGateway(deps, live.subscriptionId));
    if (!now?.endedAt) throw new AppError('BAD_GATEWAY', autoRenewalMessages.gatewayAway);
    return viewOf(deps, customerId);
  }
  await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(autoRenewals)
      .set({ endsAtCycleEnd: atCycleEnd, updatedAt: clock.now() })
      .where(and(eq(autoRenewals.id, live.id), eq(autoRenewals.endsAtCycleEnd, false)))
      .returning({ id: autoRenewals.id });
    await writeGatewayState(tx, deps, cancelled, clock.now());
    if (!changed) return;
    const planEnd = await latestPlanEnd(tx, customerId, clock.now());
    await recordActivity(tx, clock, {
      customerId,
      type: 'auto_renewal_off',
      title: 'Auto-renewal turned off',
      description: planEnd
        ? `No further debits of ${formatPaise(live.amountPaise)}; the plan stays until the end of its period`
        : `No further debits of ${formatPaise(live.amountPaise)}`,
      status: 'success',
      details: { planId: live.planId },
    });
  });
  return viewOf(deps, customerId);
}

/**
 * Cancels the customer's mandate at the gateway now, for an account that is closing: nothing may
 * be debited from it after. A gateway that cannot say it is cancelled stops the closing.
 */
export async function cancelMandateOnClosing(deps: AppDeps, customerId: string): Promise<void> {
  const live = await liveRenewal(deps.db, customerId);
  if (live) {
    await cancelNow(deps, live, new AppError('BAD_GATEWAY', autoRenewalMessages.gatewayAway));
  }
}
