// first: zod takes its settings when it loads
import './lib/zod-config';
import './index.css';
import { nextTask } from './lib/next-task';

/**
 * React's DOM renderer, then the app (router, queries, screens), each evaluated in a task of its
 * own: on a slow phone evaluating both at once is one long task that blocks the painted page.
 * The first HTML preloads both chunks (vite.config.ts), so the steps cost no extra round trip.
 */
async function start() {
  const { createRoot } = await import('react-dom/client');
  const root = createRoot(document.getElementById('root')!);
  await nextTask();
  const { startApp } = await import('./app/start');
  startApp(root);
}

void start();
