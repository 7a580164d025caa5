import { z } from 'zod';
import {
  ErrorResponseSchema,
  SignedLinkQuerySchema,
  orderPaths,
  receiptPath,
} from '@portal/contract';
import { AppError } from '../../lib/errors';
import type { App } from '../../lib/types';
import { isUuid } from '../../lib/uuid';
import { receiptFileFor } from './receipts';

export async function receiptRoutes(app: App) {
  app.get(
    orderPaths.receipt,
    {
      schema: {
        tags: ['orders'],
        summary: 'The GST tax invoice of an order, by a short-lived signed link',
        params: z.object({ id: z.string().max(100) }),
        querystring: SignedLinkQuerySchema,
        response: {
          200: z.any(),
          403: ErrorResponseSchema,
          404: ErrorResponseSchema,
          409: ErrorResponseSchema,
          410: ErrorResponseSchema,
          503: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const customerId = app.deps.signedLinks.verify(receiptPath(id), request.query);
      if (!isUuid(id)) throw new AppError('NOT_FOUND', 'Receipt not available for this order.');
      const receipt = await receiptFileFor(app.deps.db, id, customerId);
      const pdf = await app.deps.files.stream(receipt.fileKey);
      if (!pdf) throw new AppError('NOT_FOUND', 'Receipt not available for this order.');
      const fileName = `${receipt.invoiceNumber.replaceAll('/', '-')}.pdf`;
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(pdf.size))
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf.body);
    },
  );
}
