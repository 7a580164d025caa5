import { and, eq, isNotNull } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { orders } from './schema';
import { checkOrderPayment } from './settlement';

const gatewayAway = () =>
  new AppError(
    'BAD_GATEWAY',
    'Your pending payment could not be cancelled at the payment gateway. Please try again in a few minutes.',
  );

/** A link in these states can still take money. */
const STILL_OPEN = new Set(['created', 'partially_paid']);

/**
 * Cancels at the gateway the payment link of each of a customer's Pending orders, so that none
 * can take money once the account is closed. A link the gateway will not cancel because it was
 * paid or closed meanwhile is settled as the gateway reports it. A gateway that cannot be
 * reached, or that leaves a link open, stops here: the caller changes nothing, and may be asked
 * again.
 */
export async function cancelOpenPaymentLinks(deps: AppDeps, customerId: string): Promise<void> {
  const open = await deps.db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.customerId, customerId),
        eq(orders.status, 'Pending'),
        isNotNull(orders.paymentLinkId),
      ),
    );
  const { gateway } = deps.payments;
  for (const order of open) {
    const linkId = order.paymentLinkId!;
    try {
      await gateway.cancelPaymentLink(linkId);
      continue;
    } catch {
      // paid or closed meanwhile, or the gateway is away: its record of the link says which
    }
    const link = await gateway.fetchPaymentLink(linkId).catch(() => {
      throw gatewayAway();
    });
    if (STILL_OPEN.has(link.status)) throw gatewayAway();
    await checkOrderPayment(deps, order);
  }
}
