import { and, eq, lt, type SQL } from 'drizzle-orm';
import { SANDBOX_GATEWAY_PREFIX } from '../../adapters/payment-gateway';
import type {
  GatewayPlan,
  GatewaySubscription,
} from '../../adapters/payment-gateway-subscriptions';
import type { Executor } from '../../db/client';
import type { App } from '../../lib/types';
import { randomId } from './ids';
import {
  sandboxPlans,
  sandboxSubscriptionInvoices,
  sandboxSubscriptions,
} from './subscriptions-schema';
import { deliverWebhook } from './webhooks';

export type PlanRow = typeof sandboxPlans.$inferSelect;
export type SubscriptionRow = typeof sandboxSubscriptions.$inferSelect;

/** RBI's rule for recurring charges: above ₹15,000 the customer authenticates each one. */
const AUTHENTICATION_ABOVE_PAISE = 1_500_000;
/** Failed charges in a row after which Razorpay stops retrying and halts the subscription. */
const ATTEMPTS_BEFORE_HALT = 3;
/** Where a charge is due: the statuses the next cycle's charge may be run from. */
const CHARGEABLE = ['authenticated', 'active', 'pending', 'halted'];
const ENDED = ['cancelled', 'completed', 'expired'];

export const unix = (at: Date) => Math.floor(at.getTime() / 1000);
export const unixOrNull = (at: Date | null) => (at ? unix(at) : null);

/**
 * The start of the cycle `n` cycles after `start`. Months are counted on the calendar, from the
 * first start each time, so that the 31st falls on a shorter month's last day and comes back.
 */
export function cycleStart(plan: Pick<PlanRow, 'period' | 'interval'>, start: Date, n: number) {
  const steps = plan.interval * n;
  const at = new Date(start);
  if (plan.period === 'daily' || plan.period === 'weekly') {
    at.setUTCDate(at.getUTCDate() + steps * (plan.period === 'weekly' ? 7 : 1));
    return at;
  }
  at.setUTCDate(1);
  at.setUTCMonth(at.getUTCMonth() + (plan.period === 'monthly' ? steps : 12 * steps));
  const lastDay = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0)).getUTCDate();
  at.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return at;
}

/** A payment on the subscription, as the webhooks about a payment attempt carry it. */
function payment(row: SubscriptionRow, plan: PlanRow, status: 'captured' | 'failed', at: Date) {
  const failed = status === 'failed';
  return {
    id: randomId('pay'),
    entity: 'payment',
    amount: plan.amount * row.quantity,
    currency: plan.currency,
    status,
    method: row.paymentMethod,
    captured: !failed,
    invoice_id: randomId('inv'),
    subscription_id: row.id,
    customer_id: row.gatewayCustomerId,
    description: plan.name,
    notes: row.notes,
    error_code: failed ? 'BAD_REQUEST_ERROR' : null,
    error_description: failed ? 'Payment failed due to insufficient balance' : null,
    error_reason: failed ? 'payment_failed' : null,
    created_at: unix(at),
  };
}

type Payment = ReturnType<typeof payment>;
type InvoiceRow = typeof sandboxSubscriptionInvoices.$inferInsert;
/**
 * The invoice Razorpay raises for a charge attempt, under the payment's `invoice_id`: paid with
 * it, or left issued when it failed. `row` is the subscription before the charge, so the cycle
 * billed is the one after those it has paid for.
 */
function invoiceOf(row: SubscriptionRow, plan: PlanRow, made: Payment, at: Date): InvoiceRow {
  const cycle = (n: number) => (row.startAt ? cycleStart(plan, row.startAt, n) : null);
  const paid = made.status === 'captured';
  return {
    id: made.invoice_id,
    subscriptionId: row.id,
    paymentId: made.id,
    amount: made.amount,
    status: paid ? 'paid' : 'issued',
    billingStart: cycle(row.paidCount),
    billingEnd: cycle(row.paidCount + 1),
    paidAt: paid ? at : null,
  };
}
interface Event {
  name: string;
  /** The subscription as the event shows it; a payment's own event (payment.failed) has none. */
  row?: SubscriptionRow;
  payment?: Payment;
}
/**
 * What a step makes of a subscription: a refusal, or its new state, the invoice of the charge
 * it attempted, if any, and the webhooks to send.
 */
type Changed = { row: SubscriptionRow; events: Event[]; invoice?: InvoiceRow };
type Step = { refused: string } | Changed;
type StepOn = (row: SubscriptionRow, plan: PlanRow) => Step;

/** A successful charge: the next cycle is paid for, and the last one completes the subscription. */
function charged(row: SubscriptionRow, plan: PlanRow, now: Date, paid?: Payment): Changed {
  const active = { ...row, status: 'active', paidCount: row.paidCount + 1, authAttempts: 0 };
  const done = active.paidCount === row.totalCount;
  const next = done ? { ...active, status: 'completed', endedAt: now } : active;
  const made = paid ?? payment(active, plan, 'captured', now);
  return {
    row: next,
    invoice: invoiceOf(row, plan, made, now),
    events: [
      ...(row.status === 'active'
        ? []
        : [{ name: 'subscription.activated', row: active, payment: made }]),
      { name: 'subscription.charged', row: active, payment: made },
      ...(done ? [{ name: 'subscription.completed', row: next, payment: made }] : []),
    ],
  };
}

/**
 * A failed charge: pending while Razorpay would retry, halted once the retries are spent. As on
 * Razorpay, the failed payment's own webhook comes before the subscription's.
 */
function chargeFailed(row: SubscriptionRow, plan: PlanRow, now: Date): Changed {
  const authAttempts = row.authAttempts + 1;
  const halts = authAttempts >= ATTEMPTS_BEFORE_HALT;
  const next = { ...row, authAttempts, status: halts ? 'halted' : 'pending' };
  // a halted subscription is not retried: one failing again changes nothing it shows
  if (row.status === 'halted') return { row: next, events: [] };
  const attempt = payment(next, plan, 'failed', now);
  return {
    row: next,
    invoice: invoiceOf(row, plan, attempt, now),
    events: [
      { name: 'payment.failed', payment: attempt },
      { name: `subscription.${next.status}`, row: next, payment: attempt },
    ],
  };
}

function cancelledNow(row: SubscriptionRow, now: Date): Changed {
  const next = { ...row, status: 'cancelled', endedAt: now, cancelAtCycleEnd: false };
  return { row: next, events: [{ name: 'subscription.cancelled', row: next }] };
}

/** The sandbox's operator call: the next cycle's charge, as it goes. */
export const nextCharge =
  (input: { outcome: 'success' | 'failure'; authenticated: boolean }): StepOn =>
  (row, plan) => {
    if (!CHARGEABLE.includes(row.status)) {
      return { refused: `Subscription cannot be charged in ${row.status} status` };
    }
    const now = new Date();
    // the cycle it was to end with is over
    if (row.cancelAtCycleEnd) return cancelledNow(row, now);
    if (input.outcome === 'failure') return chargeFailed(row, plan, now);
    if (plan.amount * row.quantity > AUTHENTICATION_ABOVE_PAISE && !input.authenticated) {
      return {
        refused:
          "A recurring charge above ₹15,000 needs the customer's authentication: send authenticated: true once they have given it",
      };
    }
    return charged(row, plan, now);
  };

/** Razorpay's cancel: now, or once the current cycle ends (then nothing shows it until it does). */
export const cancel =
  (atCycleEnd: boolean): StepOn =>
  (row) => {
    if (ENDED.includes(row.status)) {
      return { refused: `Subscription is not cancellable in ${row.status} status.` };
    }
    if (!atCycleEnd) return cancelledNow(row, new Date());
    if (row.status !== 'active') {
      return {
        refused: `Subscription in ${row.status} status has no billing cycle to cancel at the end of: cancel it now instead`,
      };
    }
    return { row: { ...row, cancelAtCycleEnd: true }, events: [] };
  };

export const pause: StepOn = (row) => {
  if (row.status !== 'active') {
    return {
      refused: `Subscription cannot be paused in ${row.status} status: only an active one can`,
    };
  }
  const next = { ...row, status: 'paused', pausedAt: new Date() };
  return { row: next, events: [{ name: 'subscription.paused', row: next }] };
};

export const resume: StepOn = (row) => {
  if (row.status !== 'paused') {
    return {
      refused: `Subscription cannot be resumed in ${row.status} status: only a paused one can`,
    };
  }
  const next = { ...row, status: 'active', pausedAt: null };
  return { row: next, events: [{ name: 'subscription.resumed', row: next }] };
};

/**
 * The customer's answer on the hosted page. Authorised, the subscription is authenticated; one
 * that starts at once is charged its first cycle in the same payment and is active. After a
 * failed charge (pending, halted), it pays the charge due by the method chosen.
 */
export const authorise =
  (input: { method: string; outcome: 'authorise' | 'fail' }): StepOn =>
  (row, plan) => {
    if (row.status === 'expired') return { refused: 'The authorisation link has expired' };
    if (row.status === 'pending' || row.status === 'halted') {
      if (input.outcome === 'fail') return chargeFailed(row, plan, new Date());
      return charged({ ...row, paymentMethod: input.method }, plan, new Date());
    }
    // answered already (or cancelled since the page was read): nothing to authorise
    if (row.status !== 'created') return { row, events: [] };
    if (input.outcome === 'fail') {
      return { row: { ...row, authAttempts: row.authAttempts + 1 }, events: [] };
    }
    const now = new Date();
    const authenticated = {
      ...row,
      status: 'authenticated',
      paymentMethod: input.method,
      gatewayCustomerId: row.gatewayCustomerId ?? randomId('cust'),
      authAttempts: 0,
      startAt: row.startAt ?? now,
    };
    if (row.startAt) {
      return {
        row: authenticated,
        events: [{ name: 'subscription.authenticated', row: authenticated }],
      };
    }
    const paid = payment(authenticated, plan, 'captured', now);
    const started = charged(authenticated, plan, now, paid);
    return {
      row: started.row,
      invoice: started.invoice,
      events: [
        { name: 'subscription.authenticated', row: authenticated, payment: paid },
        ...started.events,
      ],
    };
  };

/** A plan's item as Razorpay shows it: the sandbox's plans are untaxed and always active. */
const planItem = (plan: PlanRow) => ({
  id: plan.itemId,
  active: true,
  name: plan.name,
  description: plan.description,
  amount: plan.amount,
  unit_amount: plan.amount,
  currency: plan.currency,
  type: 'plan',
  unit: null,
  tax_inclusive: false,
  hsn_code: null,
  sac_code: null,
  tax_rate: null,
  tax_id: null,
  tax_group_id: null,
  created_at: unix(plan.createdAt),
  updated_at: unix(plan.createdAt),
});

export const planEntity = (plan: PlanRow): GatewayPlan & Record<string, unknown> => ({
  id: plan.id,
  entity: 'plan',
  interval: plan.interval,
  period: plan.period as GatewayPlan['period'],
  item: planItem(plan),
  notes: plan.notes,
  created_at: unix(plan.createdAt),
});

/** The sandbox's plans and subscriptions: read, changed one step at a time, and shown as Razorpay shows them. */
export function sandboxSubscriptionStore(app: App) {
  const { config, clock } = app.deps;
  const authorisationUrl = (id: string) =>
    `${config.PUBLIC_URL}${SANDBOX_GATEWAY_PREFIX}/subscribe/${id}`;

  const subscriptionEntity = (
    row: SubscriptionRow,
    plan: PlanRow,
  ): GatewaySubscription & Record<string, unknown> => {
    const cycle = (n: number) => (row.startAt ? unix(cycleStart(plan, row.startAt, n)) : null);
    const running = row.paidCount > 0;
    const due = row.status === 'created' || CHARGEABLE.includes(row.status);
    return {
      id: row.id,
      entity: 'subscription',
      plan_id: row.planId,
      customer_id: row.gatewayCustomerId,
      status: row.status as GatewaySubscription['status'],
      current_start: running ? cycle(row.paidCount - 1) : null,
      current_end: running ? cycle(row.paidCount) : null,
      ended_at: unixOrNull(row.endedAt),
      quantity: row.quantity,
      notes: row.notes,
      charge_at: due ? cycle(row.paidCount) : null,
      start_at: unixOrNull(row.startAt),
      end_at: cycle(row.totalCount),
      auth_attempts: row.authAttempts,
      total_count: row.totalCount,
      paid_count: row.paidCount,
      customer_notify: row.gatewayNotifies,
      created_at: unix(row.createdAt),
      expire_by: unixOrNull(row.expireBy),
      short_url: authorisationUrl(row.id),
      has_scheduled_changes: false,
      change_scheduled_at: null,
      source: 'api',
      payment_method: row.paymentMethod,
      offer_id: null,
      remaining_count: row.totalCount - row.paidCount,
      ...(row.status === 'paused'
        ? { paused_at: unixOrNull(row.pausedAt), pause_initiated_by: 'self' }
        : {}),
    };
  };

  const findPlan = async (id: string) => {
    const [plan] = await app.deps.db.select().from(sandboxPlans).where(eq(sandboxPlans.id, id));
    return plan ?? null;
  };

  /**
   * Razorpay's expiry: past its expire_by and never authorised, a subscription is expired, and
   * no webhook says so. Written when it is next read or stepped, each row under its own lock, so
   * that an authorisation that commits first keeps it.
   */
  const expireLapsed = async (db: Executor, where?: SQL) => {
    await db
      .update(sandboxSubscriptions)
      .set({ status: 'expired' })
      .where(
        and(
          eq(sandboxSubscriptions.status, 'created'),
          lt(sandboxSubscriptions.expireBy, clock.now()),
          where,
        ),
      );
  };

  const findSubscription = async (id: string) => {
    await expireLapsed(app.deps.db, eq(sandboxSubscriptions.id, id));
    const [found] = await app.deps.db
      .select({ row: sandboxSubscriptions, plan: sandboxPlans })
      .from(sandboxSubscriptions)
      .innerJoin(sandboxPlans, eq(sandboxPlans.id, sandboxSubscriptions.planId))
      .where(eq(sandboxSubscriptions.id, id));
    return found ?? null;
  };

  /**
   * Takes the subscription one step on under its row lock, so that of calls that race each
   * sees the state the one before it left; its webhooks go once the step is committed.
   */
  const change = async (id: string, step: StepOn) => {
    const outcome = await app.deps.db.transaction(async (tx) => {
      // a step sees the subscription as it is now: expired, if its link lapsed
      await expireLapsed(tx, eq(sandboxSubscriptions.id, id));
      const [row] = await tx
        .select()
        .from(sandboxSubscriptions)
        .where(eq(sandboxSubscriptions.id, id))
        .for('update');
      if (!row) return null;
      const [plan] = await tx.select().from(sandboxPlans).where(eq(sandboxPlans.id, row.planId));
      const next = step(row, plan!);
      if ('refused' in next) return next;
      await tx.update(sandboxSubscriptions).set(next.row).where(eq(sandboxSubscriptions.id, id));
      // the attempt's invoice commits with the step its webhooks tell of, or neither does
      if (next.invoice) await tx.insert(sandboxSubscriptionInvoices).values(next.invoice);
      return { ...next, plan: plan! };
    });
    if (!outcome || 'refused' in outcome) return outcome;
    for (const event of outcome.events) {
      await deliverWebhook(app, event.name, {
        ...(event.row
          ? { subscription: { entity: subscriptionEntity(event.row, outcome.plan) } }
          : {}),
        ...(event.payment ? { payment: { entity: event.payment } } : {}),
      });
    }
    return { entity: subscriptionEntity(outcome.row, outcome.plan) };
  };

  return { subscriptionEntity, expireLapsed, findPlan, findSubscription, change };
}

export type SandboxSubscriptionStore = ReturnType<typeof sandboxSubscriptionStore>;
