import type { FastifyReply } from 'fastify';
import { SANDBOX_GATEWAY_PREFIX } from '../../adapters/payment-gateway';
import { AppError } from '../../lib/errors';
import type { App } from '../../lib/types';
import { razorpayBodies } from './http';
import { renderSubscriptionPage, renderSubscriptionStatusPage, type MandateMethod } from './pages';
import { AuthoriseSchema, IdParams } from './request-schemas';
import { authorise, type PlanRow, type SandboxSubscriptionStore } from './subscriptions';

const UNITS = { daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year' } as const;

/** How often a plan charges, in words: `every month`, `every 3 weeks`. */
function every(plan: PlanRow) {
  const unit = UNITS[plan.period as keyof typeof UNITS];
  return plan.interval === 1 ? `every ${unit}` : `every ${plan.interval} ${unit}s`;
}

/**
 * The hosted authorisation page a subscription's short_url leads to: the customer chooses how
 * to pay, then authorises the mandate or fails, and the subscription and its webhooks follow.
 * After a failed charge, the same page pays the charge due by another method.
 */
export async function subscriptionCheckoutRoutes(
  app: App,
  { findSubscription, change }: SandboxSubscriptionStore,
) {
  const { config } = app.deps;
  const pagePath = (id: string) => `${SANDBOX_GATEWAY_PREFIX}/subscribe/${id}`;
  const statusPage = (status: string, method: string | null) =>
    renderSubscriptionStatusPage(
      config.INVOICE_SUPPLIER_NAME,
      status,
      method as MandateMethod | null,
      config.PUBLIC_URL,
    );
  const sendPage = (reply: FastifyReply, html: string) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(html);

  await app.register(async (page: App) => {
    razorpayBodies(page);

    page.get(
      pagePath(':id'),
      { schema: { hide: true, params: IdParams } },
      async (request, reply) => {
        const found = await findSubscription(request.params.id);
        if (!found) throw new AppError('NOT_FOUND', 'Subscription not found');
        const { row, plan } = found;
        const due = row.status === 'pending' || row.status === 'halted';
        const html =
          row.status === 'created' || due
            ? renderSubscriptionPage({
                merchant: config.INVOICE_SUPPLIER_NAME,
                plan: plan.name,
                description: plan.description,
                amountPaise: plan.amount * row.quantity,
                every: every(plan),
                cycles: row.totalCount,
                firstCharge: row.startAt
                  ? row.startAt.toLocaleDateString('en-IN', {
                      dateStyle: 'long',
                      timeZone: 'Asia/Kolkata',
                    })
                  : 'On authorising',
                failedBefore: row.authAttempts > 0,
                due,
                action: pagePath(row.id),
              })
            : statusPage(row.status, row.paymentMethod);
        return sendPage(reply, html);
      },
    );

    page.post(
      pagePath(':id'),
      { schema: { hide: true, params: IdParams, body: AuthoriseSchema } },
      async (request, reply) => {
        const changed = await change(request.params.id, authorise(request.body));
        if (!changed) throw new AppError('NOT_FOUND', 'Subscription not found');
        // the one refusal: its expire_by passed unauthorised, and the link authorises nothing now
        if ('refused' in changed) return sendPage(reply.code(410), statusPage('expired', null));
        // the page shows what became of it, and a reload sends nothing again
        return reply.redirect(pagePath(request.params.id), 303);
      },
    );
  });
}
