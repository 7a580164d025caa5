// Builds the web app and starts the portal on a fresh data folder, for the end-to-end suite.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';

const dataDir = process.env.DATA_DIR;
const webDir = path.join(dataDir, 'web');
rmSync(dataDir, { recursive: true, force: true });
const build = spawnSync(
  'npx',
  ['vite', 'build', '--outDir', webDir, '--emptyOutDir', '--logLevel', 'warn'],
  {
    cwd: new URL('../apps/web/', import.meta.url),
    stdio: 'inherit',
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn('npx', ['tsx', 'src/main.ts'], {
  cwd: new URL('../apps/server/', import.meta.url),
  stdio: 'inherit',
  env: {
    ...process.env,
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR: webDir,
    PUBLIC_URL: `http://localhost:${process.env.PORT}`,
  },
});
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => process.exit(code ?? 0));
