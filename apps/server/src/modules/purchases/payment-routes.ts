import { z } from 'zod';
import {
  CheckStatusResponseSchema,
  CreatePaymentRequestSchema,
  CreatePaymentResponseSchema,
  ErrorResponseSchema,
  PaymentCallbackQuerySchema,
  PaymentWebhookBodySchema,
  PaymentWebhookHeadersSchema,
  WebhookResponseSchema,
  orderPaths,
  paymentPaths,
} from '@portal/contract';
import { AppError } from '../../lib/errors';
import { INVALID_JSON_MESSAGE } from '../../lib/http-errors';
import type { App } from '../../lib/types';
import {
  handleCallback,
  handleWebhook,
  type SubscriptionEventHandler,
} from './callback-and-webhook';
import { createPayment } from './create-payment';
import { checkOrderPayment } from './settlement';
import { findOwnOrder, orderView } from './orders';

/**
 * Where the customer lands after checkout: the order history, which says the outcome of the
 * order named (its id is no secret: the customer's own reference, useless without a session).
 */
export const afterPaymentPath = (orderId: string) =>
  `/orders?tab=history&order=${encodeURIComponent(orderId)}`;

/** What a customer's call about one of their orders may answer besides its success. */
const orderErrors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  422: ErrorResponseSchema,
  502: ErrorResponseSchema,
};

export async function paymentRoutes(
  app: App,
  options: { subscriptionEvents?: SubscriptionEventHandler } = {},
) {
  app.post(
    paymentPaths.createPayment,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['payments'],
        summary: 'Creates the payment link of a Pending order and answers its checkout URL',
        security: [{ bearer: [] }],
        body: CreatePaymentRequestSchema,
        response: { 200: CreatePaymentResponseSchema, ...orderErrors },
      },
    },
    async (request) => ({
      success: true as const,
      paymentUrl: await createPayment(app.deps, request.auth.customerId, request.body),
    }),
  );

  app.get(
    paymentPaths.callback,
    {
      schema: {
        tags: ['payments'],
        summary: "The browser's return from the gateway's checkout (signed query)",
        querystring: PaymentCallbackQuerySchema,
        response: {
          400: ErrorResponseSchema,
          403: ErrorResponseSchema,
          404: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      await handleCallback(app.deps, request.query, request.log);
      // handled means signed and naming an order of this payment link
      const orderId = request.query.razorpay_payment_link_reference_id!;
      return reply.redirect(afterPaymentPath(orderId), 303);
    },
  );

  // the signature covers the exact bytes sent: the parser keeps them, and the body as parsed
  // before validation (stored as the gateway sent it), for the handler
  await app.register(async (webhook: App) => {
    const sent = new WeakMap<object, { raw: Buffer; parsed: unknown }>();
    webhook.addContentTypeParser(
      ['application/json', 'text/plain'],
      { parseAs: 'buffer' },
      (request, body, done) => {
        const raw = body as Buffer;
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw.toString('utf8'));
        } catch {
          return done(new AppError('BAD_REQUEST', INVALID_JSON_MESSAGE));
        }
        sent.set(request, { raw, parsed });
        done(null, parsed);
      },
    );
    webhook.post(
      paymentPaths.webhook,
      {
        schema: {
          tags: ['payments'],
          summary: 'Gateway events (X-Razorpay-Signature over the raw body)',
          headers: PaymentWebhookHeadersSchema,
          body: PaymentWebhookBodySchema,
          response: {
            200: WebhookResponseSchema,
            400: ErrorResponseSchema,
            401: ErrorResponseSchema,
            404: ErrorResponseSchema,
            415: ErrorResponseSchema,
          },
        },
      },
      async (request) => {
        let outcome: Awaited<ReturnType<typeof handleWebhook>>;
        try {
          outcome = await handleWebhook(
            app.deps,
            sent.get(request) ?? { raw: Buffer.alloc(0), parsed: {} },
            {
              signature: request.headers['x-razorpay-signature'],
              eventId: request.headers['x-razorpay-event-id'],
            },
            request.log,
            options.subscriptionEvents && {
              handle: options.subscriptionEvents,
              afterAnswer: (work) => app.afterAnswer(request, work),
            },
          );
        } catch (error) {
          // refused (a bad signature, an unknown order) or failed: either way the gateway
          // sends it again
          app.deps.metrics.webhook('refused');
          throw error;
        }
        app.deps.metrics.webhook(outcome.result);
        return { success: true as const, message: outcome.result };
      },
    );
  });

  // the order screen's 'Check payment status': the gateway asked, the order settled as it says
  app.post(
    orderPaths.checkStatus,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: 'Asks the payment gateway about an order and settles it',
        security: [{ bearer: [] }],
        params: z.object({ id: z.string().max(100) }),
        response: { 200: CheckStatusResponseSchema, ...orderErrors },
      },
    },
    async (request) => {
      const { customerId } = request.auth;
      const order = await findOwnOrder(app.deps.db, customerId, request.params.id);
      await checkOrderPayment(app.deps, order, request.log);
      const view = await orderView(app.deps, customerId, order.id);
      return {
        success: true as const,
        message: `Payment status: ${view.paymentStatus}`,
        order: view,
      };
    },
  );
}
