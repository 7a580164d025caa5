import { startTransition, StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { App } from './app';
import { createRouter, routerReady } from './router';

/** Starts the router (it matches the address and asks for the route's code), then renders. */
export function startApp(root: Root) {
  const router = createRouter();
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
