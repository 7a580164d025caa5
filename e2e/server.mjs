// Builds the web app and starts the portal on a fresh data folder, for the end-to-end suite.
import { spawn } from 'node:child_process';
import { buildWebInto } from './build-web.mjs';

const webDir = buildWebInto(process.env.DATA_DIR);

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
