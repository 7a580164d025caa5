// Starts the portal (portal.mjs) on a fresh data folder, for the end-to-end suite.
import { rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { builtWeb } from './build-web.mjs';

const webDir = builtWeb();
rmSync(process.env.DATA_DIR, { recursive: true, force: true });

const server = spawn(
  process.execPath,
  ['--import', 'tsx', new URL('portal.mjs', import.meta.url).pathname],
  {
    cwd: new URL('../apps/server/', import.meta.url),
    stdio: 'inherit',
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: webDir,
      PUBLIC_URL: `http://localhost:${process.env.PORT}`,
    },
  },
);
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => process.exit(code ?? 0));
