// The gateway's events about subscriptions: a charge becomes a paid order once, and every event
// brings the auto-renewal up to date with what the gateway says now.
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  customerDate,
  formatPaise,
  mandateMethodLabel,
  type MandateMethod,
} from '@portal/contract';
import type { Transaction } from '../../db/client';
import type { AppDeps } from '../../deps';
import { recordActivity } from '../activity/record';
import { enqueueMail } from '../mail/delivery';
import { latestPlanEnd } from '../plans/current-plan';
import { plans } from '../plans/schema';
import type { AfterAnswer, WebhookOutcome } from '../purchases/callback-and-webhook';
import { paymentEvents } from '../purchases/schema';
import { afterSettlement, warnOfWrongAmount, type Settlement } from '../purchases/settlement';
import { findCustomerById } from '../users/service';
import { recordCharge } from './charges';
import { syncFromGateway } from './gateway-state';
import { autoRenewals, type AutoRenewalRow } from './schema';

interface SubscriptionEventBody {
  event?: string;
  payload?: {
    subscription?: {
      entity?: {
        id?: string;
        payment_method?: string | null;
        current_start?: number | null;
        current_end?: number | null;
      };
    };
    payment?: {
      entity?: { id?: string; amount?: number; subscription_id?: string; status?: string };
    };
  };
}

/** The subscription an event is about; undefined when it is about none. */
function subscriptionNamed(body: SubscriptionEventBody): string | undefined {
  const event = body.event ?? '';
  const payment = body.payload?.payment?.entity;
  if (event.startsWith('subscription.')) {
    return body.payload?.subscription?.entity?.id ?? payment?.subscription_id ?? '';
  }
  // a failed attempt of a subscription's charge comes as the payment's own event
  if (event === 'payment.failed' && payment?.subscription_id) return payment.subscription_id;
  return undefined;
}

/** The cycle a charge paid for, as the charged subscription shows it. */
function billedCycleOf(body: SubscriptionEventBody) {
  const subscription = body.payload?.subscription?.entity;
  const start = subscription?.current_start;
  const end = subscription?.current_end;
  if (typeof start !== 'number' || typeof end !== 'number') return undefined;
  return { start: new Date(start * 1000), end: new Date(end * 1000) };
}

async function planName(tx: Transaction, renewal: AutoRenewalRow) {
  const [plan] = await tx.select().from(plans).where(eq(plans.id, renewal.planId));
  return plan!.planName;
}

/** What the customer is told of an event, in the feed and the bell, and by mail when it stops. */
async function tellCustomer(
  tx: Transaction,
  deps: AppDeps,
  renewal: AutoRenewalRow,
  body: SubscriptionEventBody,
) {
  const { clock } = deps;
  const event = body.event;
  const details = { planId: renewal.planId };
  if (event === 'subscription.authenticated') {
    const method = body.payload?.subscription?.entity?.payment_method as MandateMethod | undefined;
    const by = method && mandateMethodLabel[method] ? ` by ${mandateMethodLabel[method]}` : '';
    await recordActivity(tx, clock, {
      customerId: renewal.customerId,
      type: 'auto_renewal_on',
      title: 'Auto-renewal turned on',
      description: `The ${await planName(tx, renewal)} plan renews automatically${by}, up to ${formatPaise(renewal.amountPaise)} a debit`,
      status: 'success',
      details,
    });
  } else if (event === 'payment.failed') {
    await recordActivity(tx, clock, {
      customerId: renewal.customerId,
      type: 'payment_failed',
      title: 'Automatic payment failed',
      description: `The automatic payment of ${formatPaise(renewal.amountPaise)} for the ${await planName(tx, renewal)} plan did not go through`,
      status: 'failed',
      details,
    });
  } else if (event === 'subscription.halted') {
    const name = await planName(tx, renewal);
    const endsAt = await latestPlanEnd(tx, renewal.customerId, clock.now());
    await recordActivity(tx, clock, {
      customerId: renewal.customerId,
      type: 'auto_renewal_halted',
      title: 'Automatic payments stopped',
      description: endsAt
        ? `Your ${name} plan ends on ${customerDate(endsAt)} unless you update your payment method`
        : `Update your payment method to keep your ${name} plan`,
      status: 'failed',
      details,
    });
    const customer = await findCustomerById(tx, renewal.customerId);
    if (customer) {
      await enqueueMail(tx, deps, {
        template: 'auto-renewal',
        to: customer.email,
        data: {
          about: 'halted',
          companyName: customer.companyName,
          planName: name,
          planEndsAt: endsAt?.toISOString() ?? null,
        },
      });
    }
  }
}

/**
 * Takes a signed gateway event about a subscription (its signature and id checked already):
 * stored once by its event id, a charge recorded once by its payment id under the renewal's
 * lock. The renewal is brought up to date from the gateway once the answer is sent: the
 * gateway waits for the answer, and on a renewal day it is busy. Null when it is about none.
 */
export async function handleSubscriptionEvent(
  deps: AppDeps,
  sent: { eventId: string; body: unknown },
  log: FastifyBaseLogger,
  afterAnswer: AfterAnswer,
): Promise<WebhookOutcome | null> {
  const body = sent.body as SubscriptionEventBody;
  const subscriptionId = subscriptionNamed(body);
  if (subscriptionId === undefined) return null;
  const [renewal] = subscriptionId
    ? await deps.db
        .select({ id: autoRenewals.id })
        .from(autoRenewals)
        .where(eq(autoRenewals.subscriptionId, subscriptionId))
    : [];
  // one the portal did not set up (made at the gateway's dashboard, say) is none of its business:
  // answered, so that the gateway does not send it again, and changes nothing
  if (!renewal) {
    log.info(
      { eventId: sent.eventId, event: body.event },
      'webhook for another subscription ignored',
    );
    return { result: 'ignored' };
  }
  const { outcome, settlement } = await deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(paymentEvents)
      .values({
        eventId: sent.eventId,
        event: body.event ?? 'unknown',
        payload: body,
        receivedAt: deps.clock.now(),
      })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvents.eventId });
    if (inserted.length === 0) return { outcome: { result: 'duplicate' as const } };
    const [locked] = await tx
      .select()
      .from(autoRenewals)
      .where(eq(autoRenewals.id, renewal.id))
      .for('update');
    await tellCustomer(tx, deps, locked!, body);
    const payment = body.payload?.payment?.entity;
    if (body.event !== 'subscription.charged' || !payment?.id || payment.amount === undefined) {
      return { outcome: { result: 'applied' as const } };
    }
    const charged = await recordCharge(
      tx,
      deps,
      locked!,
      { paymentId: payment.id, amountPaise: payment.amount, billedCycle: billedCycleOf(body) },
      sent.eventId,
    );
    if (!charged) return { outcome: { result: 'unchanged' as const } };
    warnOfWrongAmount(log, charged.orderId, charged.settlement);
    return {
      outcome: { result: 'applied' as const, orderId: charged.orderId },
      settlement: charged.settlement as Settlement | undefined,
    };
  });
  if (settlement) afterSettlement(deps, settlement, 'webhook');
  if (outcome.result !== 'duplicate') {
    afterAnswer(async () => {
      try {
        await syncFromGateway(deps, subscriptionId!);
      } catch (error) {
        // the event is kept; the reconciliation job reads the subscription again later
        log.warn({ subscriptionId, err: (error as Error).message }, 'subscription not read back');
      }
    });
  }
  return outcome;
}
