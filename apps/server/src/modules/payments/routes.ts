import {
  CreatePaymentRequestSchema,
  CreatePaymentResponseSchema,
  ErrorResponseSchema,
  PaymentCallbackQuerySchema,
  WebhookResponseSchema,
  paymentPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { createPayment, handleCallback, handleWebhook } from './service';

/** Where the customer lands after checkout: the order history shows the outcome. */
export const AFTER_PAYMENT_PATH = '/orders?tab=history';

export async function paymentRoutes(app: App) {
  app.post(
    paymentPaths.createPayment,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['payments'],
        summary: 'Creates the payment link of a Pending order and answers its checkout URL',
        security: [{ bearer: [] }],
        body: CreatePaymentRequestSchema,
        response: {
          200: CreatePaymentResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          404: ErrorResponseSchema,
          409: ErrorResponseSchema,
          422: ErrorResponseSchema,
          502: ErrorResponseSchema,
        },
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
      return reply.redirect(AFTER_PAYMENT_PATH, 303);
    },
  );

  // the signature covers the exact bytes sent, so this route reads the body unparsed
  await app.register(async (webhook: App) => {
    webhook.addContentTypeParser(
      ['application/json', 'text/plain'],
      { parseAs: 'buffer' },
      (_request, body, done) => done(null, body),
    );
    webhook.post(
      paymentPaths.webhook,
      {
        schema: {
          tags: ['payments'],
          summary: 'Gateway events (X-Razorpay-Signature over the raw body)',
          response: {
            200: WebhookResponseSchema,
            400: ErrorResponseSchema,
            401: ErrorResponseSchema,
            404: ErrorResponseSchema,
          },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = (name: string) => {
          const value = request.headers[name];
          return Array.isArray(value) ? value[0] : value;
        };
        const outcome = await handleWebhook(
          app.deps,
          raw,
          { signature: header('x-razorpay-signature'), eventId: header('x-razorpay-event-id') },
          request.log,
        );
        return { success: true as const, message: outcome.result };
      },
    );
  });
}
