import { describe, expect, it } from 'vitest';

describe('zod configuration', () => {
  it('runs every schema jitless, so that no parser probes for eval under the CSP', async () => {
    await import('./zod-config');
    const { config } = await import('zod/v4/core');
    expect(config().jitless).toBe(true);
  });
});
