import {
  CreateOrderRequestSchema,
  CreateOrderResponseSchema,
  ErrorResponseSchema,
  OrderHistoryQuerySchema,
  OrderHistoryResponseSchema,
  orderPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { createOrder, listOrders } from './orders';

export async function orderRoutes(app: App) {
  const errors = {
    400: ErrorResponseSchema,
    401: ErrorResponseSchema,
    404: ErrorResponseSchema,
    409: ErrorResponseSchema,
    422: ErrorResponseSchema,
    502: ErrorResponseSchema,
  };

  app.post(
    orderPaths.create,
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['orders'],
        summary: 'Creates a Pending order for a plan on offer',
        security: [{ bearer: [] }],
        body: CreateOrderRequestSchema,
        response: { 201: CreateOrderResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const order = await createOrder(app.deps, request.auth.customerId, request.body);
      return reply.code(201).send({ success: true as const, message: 'Order created', order });
    },
  );

  app.get(
    orderPaths.history,
    {
      // it only reads, and its statement reads the session with the page (decision 046)
      preHandler: app.authenticateInStatement,
      schema: {
        tags: ['orders'],
        summary: "A page of the signed-in customer's orders, newest first",
        security: [{ bearer: [] }],
        querystring: OrderHistoryQuerySchema,
        response: {
          200: OrderHistoryResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
        },
      },
    },
    async (request) => {
      const { session, ...page } = await listOrders(app.deps, request.auth, request.query);
      await app.confirmSession(request, session);
      return { success: true as const, ...page };
    },
  );
}
