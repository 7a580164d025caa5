import { describe, expect, it } from 'vitest';
import { BUILDS_AN_APP, documentedOperations, outline } from '../../test/api-document';

describe('GET /api/docs/json', () => {
  it(
    'names the billing details calls with their sign-in and every answer they give',
    async () => {
      const paths = await documentedOperations();
      const operations = paths['/api/billing-details']!;
      expect(outline(operations.get!)).toEqual({
        tags: ['billing'],
        summary: "The signed-in customer's billing address and GSTIN, and the seller's State",
        security: [{ bearer: [] }],
        statuses: ['200', '401', '503'],
      });
      expect(outline(operations.put!)).toEqual({
        tags: ['billing'],
        summary:
          "Saves the signed-in customer's billing address and GSTIN; orders placed before keep theirs",
        security: [{ bearer: [] }],
        statuses: ['200', '400', '401', '413', '415', '503'],
      });
    },
    BUILDS_AN_APP,
  );
});
