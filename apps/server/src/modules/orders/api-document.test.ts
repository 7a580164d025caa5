import { describe, expect, it } from 'vitest';
import { BUILDS_AN_APP, documentedOperations, outline } from '../../test/api-document';

describe('GET /api/docs/json', () => {
  it(
    'names the order history with its sign-in, its paging limits and every answer it gives',
    async () => {
      const paths = await documentedOperations();
      const history = paths['/api/orders/history']!.get!;
      expect(outline(history)).toEqual({
        tags: ['orders'],
        summary: "A page of the signed-in customer's orders, newest first",
        security: [{ bearer: [] }],
        statuses: ['200', '400', '401', '503'],
      });
      expect((history as { parameters?: unknown }).parameters).toEqual([
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
      ]);
    },
    BUILDS_AN_APP,
  );

  it(
    "names an order's status check with its sign-in, its id's limit and every answer it gives",
    async () => {
      const paths = await documentedOperations();
      const checkStatus = paths['/api/orders/{id}/check-status']!.post!;
      expect(outline(checkStatus)).toEqual({
        tags: ['orders'],
        summary: 'Asks the payment gateway about an order and settles it',
        security: [{ bearer: [] }],
        statuses: ['200', '400', '401', '404', '409', '422', '502', '503'],
      });
      expect((checkStatus as { parameters?: unknown }).parameters).toEqual([
        { name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 100 } },
      ]);
    },
    BUILDS_AN_APP,
  );
});
