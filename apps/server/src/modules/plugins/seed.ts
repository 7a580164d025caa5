import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppDeps } from '../../deps';
import { listAllPlugins, uploadPlugin } from './service';

export const SEED_PLUGINS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../seed/plugins',
);

/** The demo installers: small, harmless scripts, one per platform. */
export const SEED_PLUGINS = [
  { platform: 'Windows', version: '2.4.1', fileName: 'bank-connector-setup-2.4.1.cmd' },
  { platform: 'Linux', version: '2.4.1', fileName: 'bank-connector-setup-2.4.1.sh' },
] as const;

/** Publishes the demo installers when no installer was ever published. */
export async function seedDemoPlugins(deps: Pick<AppDeps, 'db' | 'files' | 'clock'>) {
  if ((await listAllPlugins(deps.db)).length > 0) return;
  for (const seed of SEED_PLUGINS) {
    const data = await readFile(path.join(SEED_PLUGINS_DIR, seed.fileName));
    await uploadPlugin(deps, { ...seed, data });
  }
}
