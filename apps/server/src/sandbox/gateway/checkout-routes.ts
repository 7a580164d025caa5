import { orderRef } from '@portal/contract';
import { SANDBOX_GATEWAY_PREFIX, callbackSignature } from '../../adapters/payment-gateway';
import { AppError } from '../../lib/errors';
import type { App } from '../../lib/types';
import { razorpayBodies } from './http';
import { randomId } from './ids';
import type { LinkRow, SandboxLinks } from './links';
import { renderCheckoutPage, renderClosedPage } from './pages';
import { IdParams } from './request-schemas';
import { deliverWebhook } from './webhooks';

/**
 * The hosted checkout page: paying or failing closes the link, sends its webhooks and takes the
 * customer back to the portal with the signed callback.
 */
export async function checkoutRoutes(app: App, { entity, findLink, closeLink }: SandboxLinks) {
  const { payments, config } = app.deps;
  const { settings } = payments;

  function callbackRedirect(row: LinkRow, paymentId: string) {
    const params = {
      paymentLinkId: row.id,
      referenceId: row.referenceId,
      status: row.status,
      paymentId,
    };
    const query = new URLSearchParams({
      razorpay_payment_id: paymentId,
      razorpay_payment_link_id: row.id,
      razorpay_payment_link_reference_id: row.referenceId,
      razorpay_payment_link_status: row.status,
      razorpay_signature: callbackSignature(settings.keySecret, params),
    });
    return `${row.callbackUrl}${row.callbackUrl.includes('?') ? '&' : '?'}${query}`;
  }

  await app.register(async (page: App) => {
    // the checkout page's buttons are plain HTML forms
    razorpayBodies(page);

    page.get(
      `${SANDBOX_GATEWAY_PREFIX}/checkout/:id`,
      { schema: { hide: true, params: IdParams } },
      async (request, reply) => {
        const row = await findLink(request.params.id);
        if (!row) throw new AppError('NOT_FOUND', 'Payment link not found');
        const html =
          row.status === 'created'
            ? renderCheckoutPage({
                merchant: config.INVOICE_SUPPLIER_NAME,
                linkId: row.id,
                orderRef: orderRef(row.referenceId),
                description: row.description,
                amountPaise: row.amount,
                customer: row.customer,
                actionBase: `${SANDBOX_GATEWAY_PREFIX}/checkout/${row.id}`,
              })
            : renderClosedPage(config.INVOICE_SUPPLIER_NAME, row.status, config.PUBLIC_URL);
        return reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(html);
      },
    );

    for (const outcome of ['pay', 'fail'] as const) {
      page.post(
        `${SANDBOX_GATEWAY_PREFIX}/checkout/:id/${outcome}`,
        { schema: { hide: true, params: IdParams } },
        async (request, reply) => {
          const row = await findLink(request.params.id);
          if (!row) throw new AppError('NOT_FOUND', 'Payment link not found');
          if (row.status !== 'created') {
            return reply.redirect(`${SANDBOX_GATEWAY_PREFIX}/checkout/${row.id}`, 303);
          }
          const paymentId = randomId('pay');
          const payment = {
            payment_id: paymentId,
            status: outcome === 'pay' ? 'captured' : 'failed',
            amount: row.amount,
            created_at: Math.floor(Date.now() / 1000),
          };
          const updated = await closeLink(row, outcome === 'pay' ? 'paid' : 'cancelled', payment);
          // cancelled (or paid) since the page was read: nothing is charged
          if (!updated) return reply.redirect(`${SANDBOX_GATEWAY_PREFIX}/checkout/${row.id}`, 303);
          const link = { entity: entity(updated) };
          const paymentEntity = {
            entity: {
              id: paymentId,
              entity: 'payment',
              amount: row.amount,
              currency: 'INR',
              status: payment.status,
              notes: row.notes,
              email: row.customer.email,
              contact: row.customer.contact,
            },
          };
          if (outcome === 'pay') {
            await deliverWebhook(app, 'payment_link.paid', {
              payment_link: link,
              payment: paymentEntity,
            });
          } else {
            await deliverWebhook(app, 'payment.failed', { payment: paymentEntity });
            await deliverWebhook(app, 'payment_link.cancelled', { payment_link: link });
          }
          return reply.redirect(callbackRedirect(updated, paymentId), 303);
        },
      );
    }
  });
}
