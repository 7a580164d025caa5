import type { FastifyReply } from 'fastify';
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
import { invoiceFileName } from '../mail/templates';
import { creditNoteFileName } from './credit-note-mail';
import { creditNoteFile, getInvoice, invoiceFile, listInvoices } from './service';

const SIGNED_LINK =
  'No bearer token: a short-lived signed link, bound to the customer, opens it in a new tab.';

const pdfResponses = {
  200: z.any(),
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  410: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

export async function invoiceRoutes(app: App) {
  /** Streams a stored document; a file missing from the store is as good as no document. */
  async function sendPdf(
    reply: FastifyReply,
    file: { fileKey: string; missing: string },
    fileName: string,
  ) {
    const pdf = await app.deps.files.stream(file.fileKey);
    if (!pdf) throw new AppError('NOT_FOUND', file.missing);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-length', String(pdf.size))
      .header('content-disposition', `inline; filename="${fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(pdf.body);
  }

  app.get(
    invoicePaths.list,
    {
      preHandler: app.authenticateRead,
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
    async (request) => ({
      success: true as const,
      ...(await listInvoices(app.deps, request.auth.customerId, request.query)),
    }),
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

  app.get(
    invoicePaths.pdf,
    {
      schema: {
        tags: ['invoices'],
        summary: 'The PDF of a tax invoice, by a short-lived signed link',
        description: SIGNED_LINK,
        security: [],
        params: IdParamsSchema,
        querystring: SignedLinkQuerySchema,
        response: pdfResponses,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const customerId = app.deps.signedLinks.verify(invoicePdfPath(id), request.query);
      const file = await invoiceFile(app.deps.db, customerId, id);
      return sendPdf(reply, file, invoiceFileName(file.number));
    },
  );

  app.get(
    invoicePaths.creditNotePdf,
    {
      schema: {
        tags: ['invoices'],
        summary: 'The PDF of a GST credit note, by a short-lived signed link',
        description: SIGNED_LINK,
        security: [],
        params: IdParamsSchema,
        querystring: SignedLinkQuerySchema,
        response: pdfResponses,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const customerId = app.deps.signedLinks.verify(creditNotePdfPath(id), request.query);
      const file = await creditNoteFile(app.deps.db, customerId, id);
      return sendPdf(reply, file, creditNoteFileName(file.number));
    },
  );
}
