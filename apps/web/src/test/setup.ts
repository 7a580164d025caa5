import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// the screens load their code and data asynchronously; a wait ends as soon as it holds, and under
// load (typecheck and lint beside the tests) 3 s was seen too short
configure({ asyncUtilTimeout: 10_000 });

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
