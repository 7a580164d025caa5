import { describe, it } from 'vitest';
import { BUILDS_AN_APP, expectDocumented } from '../../test/api-document';

describe('GET /api/docs/json', () => {
  // what a client generator reads of each order call: its outline, its parameters and the fields
  // its body must carry
  it.each([
    {
      path: '/api/orders',
      method: 'post',
      outline: {
        tags: ['orders'],
        summary: 'Creates a Pending order for a plan on offer',
        security: [{ bearer: [] }],
        statuses: ['201', '400', '401', '404', '409', '413', '415', '422', '502', '503'],
      },
      bodyFields: ['planId', 'amount'],
    },
    {
      path: '/api/orders/history',
      method: 'get',
      outline: {
        tags: ['orders'],
        summary: "A page of the signed-in customer's orders, newest first",
        security: [{ bearer: [] }],
        statuses: ['200', '400', '401', '503'],
      },
      parameters: [
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { default: 10, type: 'integer', minimum: 1, maximum: 100 },
        },
        {
          name: 'cursor',
          in: 'query',
          required: false,
          schema: { type: 'string', minLength: 1, maxLength: 200 },
        },
      ],
    },
    {
      path: '/api/orders/{id}/check-status',
      method: 'post',
      outline: {
        tags: ['orders'],
        summary: 'Asks the payment gateway about an order and settles it',
        security: [{ bearer: [] }],
        statuses: ['200', '400', '401', '404', '409', '422', '502', '503'],
      },
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 100 } },
      ],
    },
  ])(
    'names $method $path with its sign-in, its inputs and every answer it gives',
    ({ method, path, ...expected }) => expectDocumented(method, path, expected),
    BUILDS_AN_APP,
  );
});
