import { describe, expect, it } from 'vitest';
import { BUILDS_AN_APP, documentedOperations, expectDocumented } from '../../test/api-document';

/** An address of the API as the OpenAPI document writes it: `{id}`, not `:id`. */
const documentPath = (route: string) => route.replace(':id', '{id}');

const ID = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: 100 },
};

// a document's PDF opens in a new tab by the link the list gives: the link is the credential
const SIGNED_LINK_QUERY = [
  { name: 'expires', in: 'query', required: false, schema: { type: 'string', maxLength: 20 } },
  { name: 'sub', in: 'query', required: false, schema: { type: 'string', maxLength: 100 } },
  { name: 'sig', in: 'query', required: false, schema: { type: 'string', maxLength: 200 } },
];

describe('GET /api/docs/json', () => {
  // what a client generator reads of each invoice call: its outline and its parameters
  it.each([
    {
      path: '/api/invoices',
      outline: {
        tags: ['invoices'],
        summary:
          "A page of the signed-in customer's tax invoices, newest first, each with its credit notes",
        security: [{ bearer: [] }],
        statuses: ['200', '400', '401', '503'],
      },
      parameters: [
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { default: 20, type: 'integer', minimum: 1, maximum: 100 },
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
      path: '/api/invoices/:id',
      outline: {
        tags: ['invoices'],
        summary: 'One of the customer’s tax invoices, with its credit notes and fresh PDF links',
        security: [{ bearer: [] }],
        statuses: ['200', '400', '401', '404', '503'],
      },
      parameters: [ID],
    },
    {
      path: '/api/invoices/:id/pdf',
      outline: {
        tags: ['invoices'],
        summary: 'The PDF of a tax invoice, by a short-lived signed link',
        security: [],
        statuses: ['200', '403', '404', '409', '410', '503'],
      },
      parameters: [...SIGNED_LINK_QUERY, ID],
    },
    {
      path: '/api/credit-notes/:id/pdf',
      outline: {
        tags: ['invoices'],
        summary: 'The PDF of a GST credit note, by a short-lived signed link',
        security: [],
        statuses: ['200', '403', '404', '409', '410', '503'],
      },
      parameters: [...SIGNED_LINK_QUERY, ID],
    },
  ])(
    'names GET $path with its sign-in, its inputs and every answer it gives',
    ({ path, ...expected }) => expectDocumented('get', path, expected),
    BUILDS_AN_APP,
  );

  it(
    'tells how a PDF link opens without the bearer token',
    async () => {
      const paths = await documentedOperations();
      for (const path of ['/api/invoices/:id/pdf', '/api/credit-notes/:id/pdf']) {
        const operation = paths[documentPath(path)]!.get! as { description?: string };
        expect(operation.description, path).toBe(
          'No bearer token: a short-lived signed link, bound to the customer, opens it in a new tab.',
        );
      }
    },
    BUILDS_AN_APP,
  );
});
