import { paymentPaths } from '@portal/contract';
import { hmacHex } from '../../adapters/payment-gateway';
import type { App } from '../../lib/types';
import { randomId } from './ids';

/** A webhook to the portal, signed with the webhook secret as Razorpay signs its own. */
export async function deliverWebhook(app: App, event: string, payload: Record<string, unknown>) {
  const { payments, config } = app.deps;
  const { settings } = payments;
  const body = JSON.stringify({
    entity: 'event',
    account_id: 'acc_sandbox',
    event,
    contains: Object.keys(payload),
    payload,
    created_at: Math.floor(Date.now() / 1000),
  });
  try {
    const response = await app.deps.payments.fetch(`${config.PUBLIC_URL}${paymentPaths.webhook}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': hmacHex(settings.webhookSecret, body),
        'x-razorpay-event-id': randomId('evt'),
      },
      body,
      signal: AbortSignal.timeout(5000),
    });
    if (!response.ok) app.log.warn({ event, status: response.status }, 'sandbox webhook refused');
  } catch (error) {
    // an undelivered webhook is what reconciliation is for
    app.log.warn({ event, err: (error as Error).message }, 'sandbox webhook not delivered');
  }
}
