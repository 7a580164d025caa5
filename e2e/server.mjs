// Starts the portal for the end-to-end suite on a fresh data folder.
import { rmSync } from 'node:fs';
import { spawn } from 'node:child_process';

rmSync(process.env.DATA_DIR, { recursive: true, force: true });
const server = spawn('npx', ['tsx', 'src/main.ts'], {
  cwd: new URL('../apps/server/', import.meta.url),
  stdio: 'inherit',
  env: { ...process.env, LOG_LEVEL: 'warn', PUBLIC_URL: `http://localhost:${process.env.PORT}` },
});
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => process.exit(code ?? 0));
