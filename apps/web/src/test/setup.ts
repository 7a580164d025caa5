import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// the screens load their code and data asynchronously; on a busy machine that takes over a second
configure({ asyncUtilTimeout: 3_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// sonner takes a closed toast off the page by a timer 200 ms later: let the last one run while the
// file's page still exists, or it fires after the page is gone and React finds no window
afterAll(() => new Promise((resolve) => setTimeout(resolve, 250)));

// An unexpected console.error fails the test.
const originalError = console.error;
vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
  originalError(...args);
  throw new Error(`console.error was called: ${String(args[0])}`);
});
