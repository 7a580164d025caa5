// What the gateway says of a subscription, written onto the auto-renewal that holds it.
import { and, eq, lte } from 'drizzle-orm';
import type { AutoRenewalStatus } from '@portal/contract';
import type { Executor } from '../../db/client';
import type { AppDeps } from '../../deps';
import type {
  GatewaySubscription,
  SubscriptionStatus,
} from '../../adapters/payment-gateway-subscriptions';
import { DAY_MS } from '../../lib/clock';
import { autoRenewals, type AutoRenewalRow } from './schema';

/**
 * How long the customer has to authorise the mandate: the subscription's `expire_by`, after which
 * the gateway expires it without an event.
 */
export const AUTHORISATION_WINDOW_MS = DAY_MS;

/** A subscription in these statuses takes no charge again: its auto-renewal has ended. */
export const ENDED_STATUSES: readonly SubscriptionStatus[] = ['cancelled', 'completed', 'expired'];

const METHODS = new Set(['upi', 'emandate', 'card']);

const fromUnix = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000));

/** The row's columns the gateway's subscription decides. */
export function columnsOf(subscription: GatewaySubscription, now: Date) {
  const ended = ENDED_STATUSES.includes(subscription.status);
  return {
    gatewayStatus: subscription.status,
    method:
      subscription.payment_method && METHODS.has(subscription.payment_method)
        ? subscription.payment_method
        : null,
    chargeAt: ended ? null : fromUnix(subscription.charge_at),
    authoriseUrl: subscription.short_url,
    ...(ended ? { endedAt: fromUnix(subscription.ended_at) ?? now } : {}),
  };
}

/**
 * Writes the gateway's subscription, as read at `readAt`, onto its auto-renewal: unless a read
 * begun later is written already, so that a late webhook or a slow fetch never takes the
 * status back. Answers the row as it is after, or null when the portal has no such renewal.
 */
export async function writeGatewayState(
  db: Executor,
  deps: Pick<AppDeps, 'clock'>,
  subscription: GatewaySubscription,
  readAt: Date,
): Promise<AutoRenewalRow | null> {
  const [written] = await db
    .update(autoRenewals)
    .set({ ...columnsOf(subscription, readAt), syncedAt: readAt, updatedAt: deps.clock.now() })
    .where(
      and(eq(autoRenewals.subscriptionId, subscription.id), lte(autoRenewals.syncedAt, readAt)),
    )
    .returning();
  if (written) return written;
  const [kept] = await db
    .select()
    .from(autoRenewals)
    .where(eq(autoRenewals.subscriptionId, subscription.id));
  return kept ?? null;
}

/**
 * Asks the gateway for the subscription and writes what it says. The gateway is the source of
 * truth: every webhook about a subscription ends here, so their order does not matter.
 */
export async function syncFromGateway(
  deps: Pick<AppDeps, 'db' | 'clock' | 'payments'>,
  subscriptionId: string,
): Promise<AutoRenewalRow | null> {
  const readAt = deps.clock.now();
  const subscription = await deps.payments.gateway.fetchSubscription(subscriptionId);
  return writeGatewayState(deps.db, deps, subscription, readAt);
}

/** How the customer's screen names where a live auto-renewal stands. */
export function statusOf(
  row: Pick<AutoRenewalRow, 'gatewayStatus' | 'endsAtCycleEnd'>,
): AutoRenewalStatus {
  if (row.endsAtCycleEnd) return 'ending';
  switch (row.gatewayStatus) {
    case 'created':
      return 'authorising';
    case 'pending':
      return 'retrying';
    case 'halted':
      return 'halted';
    case 'paused':
      return 'paused';
    default:
      return 'on';
  }
}
