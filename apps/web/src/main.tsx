// first: zod takes its settings when it loads
import './lib/zod-config';
import './index.css';
import { nextTask } from './lib/next-task';

/**
 * React's DOM renderer, then the app's code (router, layout), then the router's start, each in a
 * task of its own: on a slow phone any two of them at once make one long task that blocks the
 * painted page. The first HTML preloads both chunks (vite.config.ts), so the steps cost no extra
 * round trip.
 */
async function start() {
  const { createRoot } = await import('react-dom/client');
  const root = createRoot(document.getElementById('root')!);
  await nextTask();
  const { startApp } = await import('./app/start');
  await nextTask();
  startApp(root);
}

void start();
