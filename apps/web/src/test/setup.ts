import '@testing-library/jest-dom/vitest';
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// the screens load their code and data asynchronously; on a busy machine that takes over a second
configure({ asyncUtilTimeout: 3_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// An unexpected console.error fails the test.
const originalError = console.error;
vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
  originalError(...args);
  throw new Error(`console.error was called: ${String(args[0])}`);
});
