import { and, desc, eq } from 'drizzle-orm';
import { SANDBOX_GATEWAY_PREFIX } from '../../adapters/payment-gateway';
import type { GatewayInvoice } from '../../adapters/payment-gateway-subscriptions';
import type { App } from '../../lib/types';
import { createdWithin, refuse } from './http';
import { IdParams, InvoiceListQuerySchema } from './request-schemas';
import { unix, unixOrNull } from './subscriptions';
import { sandboxSubscriptionInvoices, sandboxSubscriptions } from './subscriptions-schema';

type InvoiceRow = typeof sandboxSubscriptionInvoices.$inferSelect;

/**
 * A subscription's invoice as Razorpay shows it: one per charge attempt, `paid` with its
 * payment or `issued` when the attempt failed. The sandbox keeps no customer details, line
 * items or taxes, and sends no invoice notifications.
 */
export function invoiceEntity(
  invoice: InvoiceRow,
  customerId: string | null,
): GatewayInvoice & Record<string, unknown> {
  const paid = invoice.status === 'paid';
  return {
    id: invoice.id,
    entity: 'invoice',
    type: 'invoice',
    invoice_number: null,
    customer_id: customerId,
    order_id: null,
    subscription_id: invoice.subscriptionId,
    payment_id: invoice.paymentId,
    status: invoice.status as GatewayInvoice['status'],
    amount: invoice.amount,
    amount_paid: paid ? invoice.amount : 0,
    amount_due: paid ? 0 : invoice.amount,
    currency: 'INR',
    currency_symbol: '₹',
    description: null,
    billing_start: unixOrNull(invoice.billingStart),
    billing_end: unixOrNull(invoice.billingEnd),
    paid_at: unixOrNull(invoice.paidAt),
    issued_at: unix(invoice.createdAt),
    cancelled_at: null,
    expired_at: null,
    sms_status: null,
    email_status: null,
    short_url: null,
    notes: {},
    created_at: unix(invoice.createdAt),
  };
}

/**
 * Razorpay's `GET /v1/invoices` and `GET /v1/invoices/:id`, for the invoices of the sandbox's
 * subscriptions, on its authenticated API instance: what reconciles charges whose webhooks
 * were lost.
 */
export async function subscriptionInvoiceRoutes(api: App) {
  const { db } = api.deps;
  const v1 = `${SANDBOX_GATEWAY_PREFIX}/v1`;
  const withCustomer = () =>
    db
      .select({
        invoice: sandboxSubscriptionInvoices,
        customerId: sandboxSubscriptions.gatewayCustomerId,
      })
      .from(sandboxSubscriptionInvoices)
      .innerJoin(
        sandboxSubscriptions,
        eq(sandboxSubscriptions.id, sandboxSubscriptionInvoices.subscriptionId),
      );

  api.get(
    `${v1}/invoices`,
    { schema: { hide: true, querystring: InvoiceListQuerySchema } },
    async (request) => {
      const q = request.query;
      const found = await withCustomer()
        .where(
          and(
            ...createdWithin(sandboxSubscriptionInvoices.createdAt, q),
            q.subscription_id === undefined
              ? undefined
              : eq(sandboxSubscriptionInvoices.subscriptionId, q.subscription_id),
          ),
        )
        .orderBy(desc(sandboxSubscriptionInvoices.createdAt), desc(sandboxSubscriptionInvoices.id))
        .limit(q.count)
        .offset(q.skip);
      const items = found.map(({ invoice, customerId }) => invoiceEntity(invoice, customerId));
      return { entity: 'collection', count: items.length, items };
    },
  );

  api.get(
    `${v1}/invoices/:id`,
    { schema: { hide: true, params: IdParams } },
    async (request, reply) => {
      const [found] = await withCustomer().where(
        eq(sandboxSubscriptionInvoices.id, request.params.id),
      );
      return found
        ? invoiceEntity(found.invoice, found.customerId)
        : refuse(reply, 404, 'The id provided does not exist');
    },
  );
}
