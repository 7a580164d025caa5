// The production build of the web app into a fresh data folder, shared by the portal starters
// of both end-to-end configurations. Returns the folder the portal serves.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

export function buildWebInto(dataDir) {
  const webDir = path.join(dataDir, 'web');
  rmSync(dataDir, { recursive: true, force: true });
  const build = spawnSync(
    'npx',
    ['vite', 'build', '--outDir', webDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: new URL('../apps/web/', import.meta.url), stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
  return webDir;
}
