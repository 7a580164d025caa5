import { z } from 'zod';
import {
  ErrorResponseSchema,
  IdParamsSchema,
  PluginDownloadQuerySchema,
  PluginsResponseSchema,
  pluginDownloadPath,
  pluginPaths,
} from '@portal/contract';
import { AppError } from '../../lib/errors';
import type { App } from '../../lib/types';
import { getLivePlugin, listLivePlugins } from './service';

/** RFC 6266: a plain ASCII name plus the UTF-8 form for browsers that read it. */
const attachment = (fileName: string) =>
  `attachment; filename="${fileName.replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

export async function pluginRoutes(app: App) {
  const { db, files, signedLinks } = app.deps;

  app.get(
    pluginPaths.list,
    {
      // it only reads, and its statement reads the session with the list (decision 076)
      preHandler: app.authenticateInStatement,
      schema: {
        tags: ['plugins'],
        summary: 'Installers on offer, each with a short-lived download link',
        security: [{ bearer: [] }],
        response: { 200: PluginsResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      const { session, ...list } = await listLivePlugins(app.deps, request.auth);
      await app.confirmSession(request, session);
      return { success: true as const, ...list };
    },
  );

  app.get(
    pluginPaths.download,
    {
      schema: {
        tags: ['plugins'],
        summary: 'The installer bytes, through a signed link (no bearer token)',
        params: IdParamsSchema,
        querystring: PluginDownloadQuerySchema,
        response: {
          200: z.any().describe('application/octet-stream'),
          403: ErrorResponseSchema,
          404: ErrorResponseSchema,
          410: ErrorResponseSchema,
          503: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      signedLinks.verify(pluginDownloadPath(request.params.id), request.query);
      const plugin = await getLivePlugin(db, request.params.id);
      // installers can be large: stream them rather than hold them in memory
      const file = await files.stream(plugin.fileKey);
      if (!file) throw new AppError('NOT_FOUND', 'Plugin file not found');
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(file.size))
        .header('content-disposition', attachment(plugin.fileName))
        .header('cache-control', 'private, no-store')
        .send(file.body);
    },
  );
}
