import { z } from 'zod';
import {
  ErrorResponseSchema,
  ExportDownloadParamsSchema,
  ExportLinkRequestSchema,
  ExportLinkResponseSchema,
  SignedLinkQuerySchema,
  exportDownloadPath,
  exportPaths,
} from '@portal/contract';
import type { App } from '../../lib/types';
import { exportFile, exportLink } from './service';

export async function exportRoutes(app: App) {
  app.post(
    exportPaths.link,
    {
      preHandler: app.authenticateRead,
      schema: {
        tags: ['exports'],
        summary:
          'A short-lived signed link to an export: a CSV list, the invoices as TallyPrime XML, or a financial year’s invoice PDFs as a ZIP',
        security: [{ bearer: [] }],
        body: ExportLinkRequestSchema,
        response: {
          200: ExportLinkResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
        },
      },
    },
    async (request) => ({
      success: true as const,
      ...exportLink(app.deps, request.auth.customerId, request.body),
    }),
  );

  app.get(
    exportPaths.download,
    {
      schema: {
        tags: ['exports'],
        summary: 'Downloads an export, streamed, by the signed link that names its kind and range',
        description:
          'No bearer token: the link, bound to the customer, the kind and the range, starts a download in the browser. CSV is UTF-8 with a byte-order mark, RFC 4180, dates en-IN; cells a spreadsheet would run as a formula start with an apostrophe.',
        security: [],
        params: ExportDownloadParamsSchema,
        querystring: SignedLinkQuerySchema,
        response: {
          200: z.any(),
          400: ErrorResponseSchema,
          403: ErrorResponseSchema,
          409: ErrorResponseSchema,
          410: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const { kind, from, to } = request.params;
      const range = { from, to };
      const customerId = app.deps.signedLinks.verify(
        exportDownloadPath(kind, range),
        request.query,
      );
      const file = await exportFile(app.deps, customerId, kind, range);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    },
  );
}
