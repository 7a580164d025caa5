import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where the secrets that no setting gives are kept, generated once. */
export const localSecretsFile = (dataDir: string) => path.join(dataDir, 'secrets.json');

/**
 * Each secret from its setting when one is given, otherwise from DATA_DIR/secrets.json, where the
 * embedded setup generates it once so that a restart keeps signed links, sessions and encrypted
 * values readable. When every one is set, the data folder is neither read nor written: a
 * production start with its secrets in the environment keeps nothing secret on disk.
 */
export async function settingOrLocalSecrets<K extends string>(
  dataDir: string,
  settings: Record<K, string | undefined>,
): Promise<Record<K, string>> {
  const names = Object.keys(settings) as K[];
  const unset = names.filter((name) => !settings[name]);
  if (unset.length === 0) return settings as Record<K, string>;
  const file = localSecretsFile(dataDir);
  let stored: Partial<Record<K, string>> = {};
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as Partial<Record<K, string>>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const missing = unset.filter((name) => !stored[name]);
  if (missing.length > 0) {
    for (const name of missing) stored[name] = randomBytes(32).toString('base64url');
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return Object.fromEntries(names.map((name) => [name, settings[name] || stored[name]])) as Record<
    K,
    string
  >;
}
