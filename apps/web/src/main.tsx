import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config as zodConfig } from 'zod/v4/core';
import { App } from './app/app';
import { createRouter, routerReady } from './app/router';
import './index.css';

// zod's compiled parsers probe for eval with `new Function`; the CSP (script-src 'self') forbids
// eval, and the blocked probe is logged as a policy violation even though zod falls back
zodConfig({ jitless: true });

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
