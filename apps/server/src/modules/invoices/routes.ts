import { z } from 'zod';
import {
  ErrorResponseSchema,
  IdParamsSchema,
  InvoiceListQuerySchema,
  InvoiceListResponseSchema,
  InvoiceResponseSchema,
  SignedLinkQuerySchema,
  creditNotePdfPath,
  invoicePaths,
  invoicePdfPath,
} from '@portal/contract';
import { AppError } from '../../lib/errors';
import type { App } from '../../lib/types';
import { invoiceFileName } from './invoice-mail';
import { creditNoteFileName } from './credit-note-mail';
import { creditNoteFile, getInvoice, invoiceFile, listInvoices } from './service';

const SIGNED_LINK =
  'No bearer token: a short-lived signed link, bound to the customer, opens it in a new tab.';

const pdfResponses = {
  200: z.any(),
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  410: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

/** The two documents whose PDFs open by a signed link: one route shape for both. */
const PDF_DOCUMENTS = [
  {
    route: invoicePaths.pdf,
    summary: 'The PDF of a tax invoice, by a short-lived signed link',
    signedPath: invoicePdfPath,
    find: invoiceFile,
    fileName: invoiceFileName,
  },
  {
    route: invoicePaths.creditNotePdf,
    summary: 'The PDF of a GST credit note, by a short-lived signed link',
    signedPath: creditNotePdfPath,
    find: creditNoteFile,
    fileName: creditNoteFileName,
  },
];

export async function invoiceRoutes(app: App) {
  app.get(
    invoicePaths.list,
    {
      // it only reads, and its statement reads the session with the page (decision 076)
      preHandler: app.authenticateInStatement,
      schema: {
        tags: ['invoices'],
        summary:
          "A page of the signed-in customer's tax invoices, newest first, each with its credit notes",
        security: [{ bearer: [] }],
        querystring: InvoiceListQuerySchema,
        response: {
          200: InvoiceListResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
        },
      },
    },
    async (request) => {
      const { session, ...page } = await listInvoices(app.deps, request.auth, request.query);
      await app.confirmSession(request, session);
      return { success: true as const, ...page };
    },
  );

  app.get(
    invoicePaths.one,
    {
      preHandler: app.authenticateRead,
      schema: {
        tags: ['invoices'],
        summary: 'One of the customer’s tax invoices, with its credit notes and fresh PDF links',
        security: [{ bearer: [] }],
        params: IdParamsSchema,
        response: {
          200: InvoiceResponseSchema,
          400: ErrorResponseSchema,
          401: ErrorResponseSchema,
          404: ErrorResponseSchema,
        },
      },
    },
    async (request) => ({
      success: true as const,
      invoice: await getInvoice(app.deps, request.auth.customerId, request.params.id),
    }),
  );

  for (const document of PDF_DOCUMENTS) {
    app.get(
      document.route,
      {
        schema: {
          tags: ['invoices'],
          summary: document.summary,
          description: SIGNED_LINK,
          security: [],
          params: IdParamsSchema,
          querystring: SignedLinkQuerySchema,
          response: pdfResponses,
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const customerId = app.deps.signedLinks.verify(document.signedPath(id), request.query);
        const file = await document.find(app.deps.db, customerId, id);
        // a file missing from the store is as good as no document
        const pdf = await app.deps.files.stream(file.fileKey);
        if (!pdf) throw new AppError('NOT_FOUND', file.missing);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-length', String(pdf.size))
          .header('content-disposition', `inline; filename="${document.fileName(file.number)}"`)
          .header('cache-control', 'private, no-store')
          .send(pdf.body);
      },
    );
  }
}
