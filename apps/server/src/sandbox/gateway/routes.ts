import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gte, lte, ne, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { orderRef, paymentPaths, text } from '@portal/contract';
import {
  SANDBOX_GATEWAY_PREFIX,
  callbackSignature,
  hmacHex,
  type PaymentLink,
} from '../../adapters/payment-gateway';
import type { FastifyError, FastifyReply } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  type ZodFastifySchemaValidationError,
} from 'fastify-type-provider-zod';
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

/** What a link keeps is plain text: PostgreSQL stores no NUL, in text or in jsonb. */
const CreateLinkSchema = z
  .object({
    amount: z.number().int().positive(),
    currency: z.literal('INR'),
    reference_id: text().min(1).max(40),
    description: text().max(2048).default(''),
    // stored as it came, so a key it does not name is refused rather than kept
    customer: z
      .strictObject({
        name: text().optional(),
        email: text().optional(),
        contact: text().optional(),
      })
      .default({}),
    notes: z.record(text(), text()).default({}),
    callback_url: text().url(),
    callback_method: z.literal('get'),
    expire_by: z.number().int().optional(),
  })
  .passthrough();

/** The gateway's ids are alphanumeric with a prefix; other text names no link. */
const gatewayId = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9_]+$/, 'is not a payment link id');
const IdParams = z.object({ id: gatewayId });

const unixSeconds = z
  .string()
  .regex(/^\d{1,10}$/, 'must be a Unix timestamp')
  .transform(Number);

/**
 * The query of Razorpay's "fetch all payment links": its own filters (`reference_id`,
 * `payment_id`) and the collection options every SDK sends (`count` 1 to 100, default 10;
 * `skip`; `from` and `to`, creation times in Unix seconds, both ends included).
 */
const ListQuerySchema = z
  .object({
    reference_id: text().min(1).max(40).optional(),
    payment_id: gatewayId.optional(),
    count: z
      .string()
      .regex(/^\d+$/, 'must be a number')
      .transform(Number)
      .pipe(z.number().min(1, 'may not be less than 1').max(100, 'may not be greater than 100'))
      .default(10),
    skip: z
      .string()
      .regex(/^\d{1,9}$/, 'must be a number')
      .transform(Number)
      .default(0),
    from: unixSeconds.optional(),
    to: unixSeconds.optional(),
  })
  .strict();

/**
 * Razorpay's words for a refused field: `The count may not be greater than 100`. The schemas'
 * own words start in lower case; zod's start a sentence of their own.
 */
function refusedField(issue: ZodFastifySchemaValidationError, context = 'request') {
  if (issue.keyword === 'unrecognized_keys') {
    return `${(issue.params.keys as string[]).join(', ')} is/are not required and should not be sent`;
  }
  const path = issue.instancePath.split('/').slice(1);
  // a key that a record refuses is named by the record, not echoed
  if (issue.keyword === 'invalid_key') path.pop();
  const field = path.join('.') || context;
  const message = issue.message ?? 'is invalid';
  return /^[a-z]/.test(message) ? `The ${field} ${message}` : `The ${field} is invalid: ${message}`;
}

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

  /** A refusal in Razorpay's shape: its SDK reads `error.description`. */
  const refuse = (reply: FastifyReply, status: number, description: string) =>
    reply.code(status).send({ error: { code: 'BAD_REQUEST_ERROR', description } });

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

  await app.register(async (api: App) => {
    api.addHook('onRequest', async (request, reply) => {
      if (!checkAuth(request.headers.authorization)) {
        return refuse(reply, 401, 'The api key provided is invalid');
      }
    });
    // Razorpay's errors, whatever refuses the request: its SDKs read `error.description`
    api.setErrorHandler((error: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        return refuse(reply, 400, refusedField(error.validation[0]!, error.validationContext));
      }
      const status = error.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'sandbox gateway failed');
        return reply.code(500).send({
          error: { code: 'SERVER_ERROR', description: 'The server encountered an error' },
        });
      }
      return refuse(reply, status, error.message);
    });
    // Bodies as Razorpay takes them: JSON or form-encoded, and none at all on cancel, where its
    // SDK sends a form content type and its own examples send `Content-Type: application/json`
    api.removeContentTypeParser('application/json');
    api.addContentTypeParser(
      ['application/json', 'application/x-www-form-urlencoded'],
      { parseAs: 'string' },
      (request, body, done) => {
        const text = String(body);
        if (text.trim() === '') return done(null, undefined);
        if (!request.headers['content-type']?.startsWith('application/json')) {
          return done(null, Object.fromEntries(new URLSearchParams(text)));
        }
        try {
          done(null, JSON.parse(text));
        } catch {
          done(Object.assign(new Error('The request body is not valid JSON'), { statusCode: 400 }));
        }
      },
    );

    api.post(
      `${SANDBOX_GATEWAY_PREFIX}/v1/payment_links`,
      { schema: { hide: true, body: CreateLinkSchema } },
      async (request, reply) => {
        const input = request.body;
        // a cancelled link gives its reference up, so that a superseded link can be replaced
        const [taken] = await app.deps.db
          .select({ id: sandboxPaymentLinks.id })
          .from(sandboxPaymentLinks)
          .where(
            and(
              eq(sandboxPaymentLinks.referenceId, input.reference_id),
              ne(sandboxPaymentLinks.status, 'cancelled'),
            ),
          );
        if (taken) {
          return refuse(reply, 400, 'Payment Link with this reference_id already exists');
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
      `${SANDBOX_GATEWAY_PREFIX}/v1/payment_links`,
      { schema: { hide: true, querystring: ListQuerySchema } },
      async (request) => {
        const q = request.query;
        const where: SQL[] = [];
        if (q.reference_id) where.push(eq(sandboxPaymentLinks.referenceId, q.reference_id));
        if (q.payment_id) {
          const tried = JSON.stringify([{ payment_id: q.payment_id }]);
          where.push(sql`${sandboxPaymentLinks.payments} @> ${tried}::jsonb`);
        }
        if (q.from !== undefined)
          where.push(gte(sandboxPaymentLinks.createdAt, new Date(q.from * 1000)));
        // `to` names a whole second: everything before the next one is in it
        if (q.to !== undefined)
          where.push(lte(sandboxPaymentLinks.createdAt, new Date(q.to * 1000 + 999)));
        const rows = await app.deps.db
          .select()
          .from(sandboxPaymentLinks)
          .where(and(...where))
          .orderBy(desc(sandboxPaymentLinks.createdAt), desc(sandboxPaymentLinks.id))
          .limit(q.count)
          .offset(q.skip);
        return { payment_links: rows.map(entity) };
      },
    );

    api.post(
      `${SANDBOX_GATEWAY_PREFIX}/v1/payment_links/:id/cancel`,
      { schema: { hide: true, params: IdParams } },
      async (request, reply) => {
        const row = await findLink(request.params.id);
        if (!row) {
          return refuse(reply, 404, 'The id provided does not exist');
        }
        const cancelled = await closeLink(row, 'cancelled');
        if (!cancelled) {
          const now = (await findLink(row.id))!;
          return refuse(reply, 400, `Payment Link cannot be cancelled as it is ${now.status}`);
        }
        await deliverWebhook('payment_link.cancelled', {
          payment_link: { entity: entity(cancelled) },
        });
        return entity(cancelled);
      },
    );

    api.get(
      `${SANDBOX_GATEWAY_PREFIX}/v1/payment_links/:id`,
      { schema: { hide: true, params: IdParams } },
      async (request, reply) => {
        const row = await findLink(request.params.id);
        if (!row) {
          return refuse(reply, 404, 'The id provided does not exist');
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
            await deliverWebhook('payment_link.paid', {
              payment_link: link,
              payment: paymentEntity,
            });
          } else {
            await deliverWebhook('payment.failed', { payment: paymentEntity });
            await deliverWebhook('payment_link.cancelled', { payment_link: link });
          }
          return reply.redirect(callbackRedirect(updated, paymentId), 303);
        },
      );
    }
  });
}
