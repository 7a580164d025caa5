import { timingSafeEqual } from 'node:crypto';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { SANDBOX_GATEWAY_PREFIX } from '../../adapters/payment-gateway';
import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { App } from '../../lib/types';
import { checkoutRoutes } from './checkout-routes';
import { createdWithin, razorpayBodies, refuse } from './http';
import { randomId } from './ids';
import { sandboxLinks } from './links';
import { CreateLinkSchema, IdParams, ListQuerySchema, refusedField } from './request-schemas';
import { sandboxPaymentLinks } from './schema';
import { subscriptionCheckoutRoutes } from './subscription-checkout-routes';
import { subscriptionInvoiceRoutes } from './subscription-invoices';
import { subscriptionRoutes } from './subscription-routes';
import { sandboxSubscriptionStore } from './subscriptions';
import { deliverWebhook } from './webhooks';

/**
 * A stand-in for Razorpay's payment links, plans and subscriptions, served by this app: the same
 * API (Basic auth with the key id and secret), hosted checkout and authorisation pages, the
 * signed callback redirect and signed webhooks. Nothing real is charged.
 */
export async function sandboxGatewayRoutes(app: App) {
  const { payments } = app.deps;
  const { settings } = payments;
  payments.sandboxRoute?.serve(app);
  const expectedAuth = Buffer.from(
    `Basic ${Buffer.from(`${settings.keyId}:${settings.keySecret}`).toString('base64')}`,
  );
  const links = sandboxLinks(app);
  const { entity, findLink, closeLink } = links;
  const subscriptions = sandboxSubscriptionStore(app);

  function checkAuth(header: string | undefined) {
    const given = Buffer.from(header ?? '');
    return given.length === expectedAuth.length && timingSafeEqual(given, expectedAuth);
  }

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
    razorpayBodies(api);

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
        const where = createdWithin(sandboxPaymentLinks.createdAt, q);
        if (q.reference_id) where.push(eq(sandboxPaymentLinks.referenceId, q.reference_id));
        if (q.payment_id) {
          const tried = JSON.stringify([{ payment_id: q.payment_id }]);
          where.push(sql`${sandboxPaymentLinks.payments} @> ${tried}::jsonb`);
        }
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
        await deliverWebhook(app, 'payment_link.cancelled', {
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

    await subscriptionRoutes(api, subscriptions);
    await subscriptionInvoiceRoutes(api);
  });

  await checkoutRoutes(app, links);
  await subscriptionCheckoutRoutes(app, subscriptions);
}
