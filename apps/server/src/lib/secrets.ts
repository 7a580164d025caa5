import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Secrets that the embedded setup generates once and keeps beside its data, so that a
 * restart keeps signed links, sessions and encrypted values readable. Production sets them.
 */
export async function loadOrCreateLocalSecrets<K extends string>(
  dataDir: string,
  names: readonly K[],
): Promise<Record<K, string>> {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Record<K, string>> = {};
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as Partial<Record<K, string>>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const missing = names.filter((name) => !stored[name]);
  if (missing.length > 0) {
    for (const name of missing) stored[name] = randomBytes(32).toString('base64url');
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return stored as Record<K, string>;
}
