import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FileStoreUnavailableError } from '../adapters/file-store';
import { listAllPlugins, retirePlugin, uploadPlugin } from '../modules/plugins/service';
import { asCli, CliError, parseOptions, requireOption, type CliCommand } from './command';

/** A network failure's code (ECONNREFUSED, ETIMEDOUT) or, failing that, its message. */
function reasonOf(cause: unknown): string {
  const { code, message, name } = cause as { code?: string; message?: string; name?: string };
  return code ?? (message || name || 'no answer');
}

const formatSize = (bytes: number) => `${new Intl.NumberFormat('en-IN').format(bytes)} B`;

export const pluginCommands: Record<string, CliCommand> = {
  'plugins:upload': {
    summary:
      'Publish an installer: --platform Windows --version 2.4.1 --file ./setup.exe [--name file-name]',
    async run(args, deps) {
      const values = parseOptions(args, {
        platform: { type: 'string' },
        version: { type: 'string' },
        file: { type: 'string' },
        name: { type: 'string' },
      });
      const platform = requireOption(values, 'platform');
      const version = requireOption(values, 'version');
      const file = path.resolve(deps.config.workingDir, requireOption(values, 'file'));
      let data: Buffer;
      try {
        data = await readFile(file);
      } catch {
        throw new CliError(`cannot read ${file}`);
      }
      const fileName = values.name?.trim() || path.basename(file);
      const { plugin, created } = await asCli(() =>
        uploadPlugin(deps, { platform, version, fileName, data }).catch((error: unknown) => {
          // the operator needs the store's own words (refused, timed out), not the 503 text
          if (error instanceof FileStoreUnavailableError) {
            throw new CliError(
              `the file store did not answer (${reasonOf(error.cause)}); nothing was published`,
            );
          }
          throw error;
        }),
      );
      console.log(
        `${created ? 'Published' : 'Already published'}: ${plugin.platform} ${plugin.version} ` +
          `${plugin.fileName} (${formatSize(plugin.size)})\n  id:      ${plugin.id}\n  sha256:  ${plugin.sha256}` +
          `\n  stored:  ${deps.files.location(plugin.fileKey)}`,
      );
    },
  },
  'plugins:list': {
    summary: 'List installers, retired ones included',
    async run(args, deps) {
      parseOptions(args, {});
      const rows = await listAllPlugins(deps.db);
      if (rows.length === 0) return console.log('No plugins.');
      for (const row of rows) {
        console.log(
          [
            row.id,
            row.platform,
            row.version,
            row.fileName,
            formatSize(row.size),
            row.sha256,
            row.retiredAt ? `retired ${row.retiredAt.toISOString()}` : 'live',
          ].join('  '),
        );
      }
    },
  },
  'plugins:retire': {
    summary: 'Stop offering an installer: --id <plugin id>',
    async run(args, deps) {
      const values = parseOptions(args, { id: { type: 'string' } });
      const id = requireOption(values, 'id');
      const row = await asCli(() => retirePlugin(deps.db, deps.clock, id));
      console.log(`Retired: ${row.platform} ${row.version} ${row.fileName}`);
    },
  },
};
