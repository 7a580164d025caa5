import { and, eq } from 'drizzle-orm';
import { SANDBOX_GATEWAY_PREFIX, type PaymentLink } from '../../adapters/payment-gateway';
import type { App } from '../../lib/types';
import { sandboxPaymentLinks } from './schema';

export type LinkRow = typeof sandboxPaymentLinks.$inferSelect;

/** The sandbox's payment links: read, closed, and shown as Razorpay's API shows them. */
export function sandboxLinks(app: App) {
  const { config } = app.deps;
  const checkoutUrl = (id: string) =>
    `${config.PUBLIC_URL}${SANDBOX_GATEWAY_PREFIX}/checkout/${id}`;

  const unix = (at: Date) => Math.floor(at.getTime() / 1000);
  const entity = (row: LinkRow): PaymentLink & Record<string, unknown> => ({
    id: row.id,
    entity: 'payment_link',
    reference_id: row.referenceId,
    status: row.status,
    amount: row.amount,
    amount_paid: row.status === 'paid' ? row.amount : 0,
    accept_partial: false,
    currency: row.currency,
    description: row.description,
    customer: row.customer,
    notes: row.notes,
    callback_url: row.callbackUrl,
    callback_method: 'get',
    short_url: checkoutUrl(row.id),
    payments: row.payments.length ? row.payments : null,
    created_at: unix(row.createdAt),
    updated_at: unix(row.updatedAt),
    // a link leaves `created` once, so its last change is when it was cancelled
    cancelled_at: row.status === 'cancelled' ? unix(row.updatedAt) : 0,
  });

  const findLink = async (id: string) => {
    const [row] = await app.deps.db
      .select()
      .from(sandboxPaymentLinks)
      .where(eq(sandboxPaymentLinks.id, id));
    return row ?? null;
  };

  /**
   * Moves a link out of `created` only if it is still there, so that of a payment and a
   * cancellation that race, one wins and the other finds the link closed.
   */
  const closeLink = async (
    row: LinkRow,
    status: 'paid' | 'cancelled',
    payment?: LinkRow['payments'][number],
  ) => {
    const [updated] = await app.deps.db
      .update(sandboxPaymentLinks)
      .set({
        status,
        payments: payment ? [...row.payments, payment] : row.payments,
        updatedAt: new Date(),
      })
      .where(and(eq(sandboxPaymentLinks.id, row.id), eq(sandboxPaymentLinks.status, 'created')))
      .returning();
    return updated ?? null;
  };

  return { entity, findLink, closeLink };
}

export type SandboxLinks = ReturnType<typeof sandboxLinks>;
