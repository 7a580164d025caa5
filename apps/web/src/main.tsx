// first: zod takes its settings when it loads
import './lib/zod-config';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createRouter, routerReady } from './app/router';
import './index.css';

/** Starts the router (it matches the address and asks for the route's code), then renders. */
function start() {
  const router = createRouter();
  const root = createRoot(document.getElementById('root')!);
  // a transition lets React yield while it renders the first screen, so that the page (already
  // painted from the first HTML) stays responsive instead of one long task
  void routerReady(router).then(() =>
    startTransition(() =>
      root.render(
        <StrictMode>
          <App router={router} />
        </StrictMode>,
      ),
    ),
  );
}

// in a task of its own: evaluating the entry chunk is already a long one on a slow phone
setTimeout(start);
