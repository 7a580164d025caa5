import { z } from 'zod';
import {
  ErrorResponseSchema,
  IdParamsSchema,
  PLUGIN_LINK_TTL_SECONDS,
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
      preHandler: app.authenticate,
      schema: {
        tags: ['plugins'],
        summary: 'Installers on offer, each with a short-lived download link',
        security: [{ bearer: [] }],
        response: { 200: PluginsResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      const rows = await listLivePlugins(db);
      return {
        success: true as const,
        plugins: rows.map((row) => ({
          _id: row.id,
          platform: row.platform,
          fileName: row.fileName,
          version: row.version,
          uploadedDate: row.uploadedAt.toISOString(),
          downloadURL: signedLinks.sign(
            pluginDownloadPath(row.id),
            request.auth.customerId,
            PLUGIN_LINK_TTL_SECONDS,
          ),
          size: row.size,
          sha256: row.sha256,
        })),
      };
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
