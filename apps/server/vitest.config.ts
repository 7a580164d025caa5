import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // argon2 and database set-up are slow on two cores
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
