import { randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { orderRef, paymentPaths } from '@portal/contract';
import {
  SANDBOX_GATEWAY_PREFIX,
  callbackSignature,
  hmacHex,
  type PaymentLink,
} from '../../adapters/payment-gateway';
import { AppError } from '../../lib/errors';
import type { App } from '../../lib/types';
import { renderCheckoutPage, renderClosedPage } from './pages';
import { sandboxPaymentLinks } from './schema';

type LinkRow = typeof sandboxPaymentLinks.$inferSelect;

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 22 characters of 62: about 131 random bits, so holding the id is the checkout's only key. */
export const SANDBOX_ID_LENGTH = 22;

/** Alphanumeric like Razorpay's ids; bytes past 247 (4 × 62 - 1) are skipped to keep it uniform. */
export function randomId(prefix: string): string {
  let id = '';
  while (id.length < SANDBOX_ID_LENGTH) {
    for (const byte of randomBytes(SANDBOX_ID_LENGTH)) {
      if (byte < 248 && id.length < SANDBOX_ID_LENGTH) id += ALPHANUMERIC[byte % 62];
    }
  }
  return `${prefix}_${id}`;
}

const CreateLinkSchema = z
  .object({
    amount: z.number().int().positive(),
    currency: z.literal('INR'),
    reference_id: z.string().min(1).max(40),
    description: z.string().max(2048).default(''),
    customer: z
      .object({
        name: z.string().optional(),
        email: z.string().optional(),
        contact: z.string().optional(),
      })
      .default({}),
    notes: z.record(z.string(), z.string()).default({}),
    callback_url: z.string().url(),
    callback_method: z.literal('get'),
    expire_by: z.number().int().optional(),
  })
  .passthrough();

/** The gateway's ids are alphanumeric with a prefix; other text names no link. */
const IdParams = z.object({
  id: z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9_]+$/, 'is not a payment link id'),
});

/**
 * A stand-in for Razorpay's payment links, served by this app: the same API (Basic auth with
 * the key id and secret), a hosted checkout page, the signed callback redirect and signed
 * webhooks. Nothing real is charged.
 */
export async function sandboxGatewayRoutes(app: App) {
  const { payments, config } = app.deps;
  const { settings } = payments;
  payments.sandboxRoute?.serve(app);
  const expectedAuth = Buffer.from(
    `Basic ${Buffer.from(`${settings.keyId}:${settings.keySecret}`).toString('base64')}`,
  );
  const checkoutUrl = (id: string) =>
    `${config.PUBLIC_URL}${SANDBOX_GATEWAY_PREFIX}/checkout/${id}`;

  const entity = (row: LinkRow): PaymentLink & Record<string, unknown> => ({
    id: row.id,
    entity: 'payment_link',
    reference_id: row.referenceId,
    status: row.status,
    amount: row.amount,
    amount_paid: row.status === 'paid' ? row.amount : 0,
    currency: row.currency,
    description: row.description,
    customer: row.customer,
    notes: row.notes,
    callback_url: row.callbackUrl,
    callback_method: 'get',
    short_url: checkoutUrl(row.id),
    payments: row.payments.length ? row.payments : null,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
  });

  const apiError = (status: number, description: string) =>
    ({ status, body: { error: { code: 'BAD_REQUEST_ERROR', description } } }) as const;

  function checkAuth(header: string | undefined) {
    const given = Buffer.from(header ?? '');
    return given.length === expectedAuth.length && timingSafeEqual(given, expectedAuth);
  }

  const findLink = async (id: string) => {
    const [row] = await app.deps.db
      .select()
      .from(sandboxPaymentLinks)
      .where(eq(sandboxPaymentLinks.id, id));
    return row ?? null;
  };

  await app.register(async (api: App) => {
    api.addHook('onRequest', async (request, reply) => {
      if (!checkAuth(request.headers.authorization)) {
        const e = apiError(401, 'The api key provided is invalid');
        return reply.code(e.status).send(e.body);
      }
    });

    api.post(
      `${SANDBOX_GATEWAY_PREFIX}/v1/payment_links`,
      { schema: { hide: true } },
      async (request, reply) => {
        const parsed = CreateLinkSchema.safeParse(request.body);
        if (!parsed.success) {
          const e = apiError(400, parsed.error.issues[0]?.message ?? 'invalid request');
          return reply.code(e.status).send(e.body);
        }
        const input = parsed.data;
        const [taken] = await app.deps.db
          .select({ id: sandboxPaymentLinks.id })
          .from(sandboxPaymentLinks)
          .where(eq(sandboxPaymentLinks.referenceId, input.reference_id));
        if (taken) {
          const e = apiError(400, 'Payment Link with this reference_id already exists');
          return reply.code(e.status).send(e.body);
        }
        const [row] = await app.deps.db
          .insert(sandboxPaymentLinks)
          .values({
            id: randomId('plink'),
            referenceId: input.reference_id,
            amount: input.amount,
            currency: input.currency,
            description: input.description,
            customer: input.customer,
            notes: input.notes,
            callbackUrl: input.callback_url,
            status: 'created',
          })
          .returning();
        return entity(row!);
      },
    );

    api.get(
      `${SANDBOX_GATEWAY_PREFIX}/v1/payment_links/:id`,
      { schema: { hide: true, params: IdParams } },
      async (request, reply) => {
        const row = await findLink(request.params.id);
        if (!row) {
          const e = apiError(404, 'The id provided does not exist');
          return reply.code(e.status).send(e.body);
        }
        return entity(row);
      },
    );
  });

  async function deliverWebhook(event: string, payload: Record<string, unknown>) {
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_sandbox',
      event,
      contains: Object.keys(payload),
      payload,
      created_at: Math.floor(Date.now() / 1000),
    });
    try {
      const response = await app.deps.payments.fetch(
        `${config.PUBLIC_URL}${paymentPaths.webhook}`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-razorpay-signature': hmacHex(settings.webhookSecret, body),
            'x-razorpay-event-id': randomId('evt'),
          },
          body,
          signal: AbortSignal.timeout(5000),
        },
      );
      if (!response.ok) app.log.warn({ event, status: response.status }, 'sandbox webhook refused');
    } catch (error) {
      // an undelivered webhook is what reconciliation is for
      app.log.warn({ event, err: (error as Error).message }, 'sandbox webhook not delivered');
    }
  }

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
    page.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

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
          const [updated] = await app.deps.db
            .update(sandboxPaymentLinks)
            .set({
              status: outcome === 'pay' ? 'paid' : 'cancelled',
              payments: [...row.payments, payment],
              updatedAt: new Date(),
            })
            .where(eq(sandboxPaymentLinks.id, row.id))
            .returning();
          const link = { entity: entity(updated!) };
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
            await deliverWebhook('payment_link.paid', {
              payment_link: link,
              payment: paymentEntity,
            });
          } else {
            await deliverWebhook('payment.failed', { payment: paymentEntity });
            await deliverWebhook('payment_link.cancelled', { payment_link: link });
          }
          return reply.redirect(callbackRedirect(updated!, paymentId), 303);
        },
      );
    }
  });
}
