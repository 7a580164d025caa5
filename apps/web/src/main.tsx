import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config as zodConfig } from 'zod/v4/core';
import { App } from './app/app';
import './index.css';

// zod's compiled parsers probe for eval with `new Function`; the CSP (script-src 'self') forbids
// eval, and the blocked probe is logged as a policy violation even though zod falls back
zodConfig({ jitless: true });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
