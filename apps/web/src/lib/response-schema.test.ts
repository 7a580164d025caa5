import { describe, expect, it } from 'vitest';
import { DashboardCountersResponseSchema, UserSchema } from '@portal/contract';
import { responseSchema } from './response-schema';

describe('responseSchema', () => {
  it("loads the contract's schema of the given name", async () => {
    await expect(responseSchema('UserSchema')()).resolves.toBe(UserSchema);
    await expect(responseSchema('DashboardCountersResponseSchema')()).resolves.toBe(
      DashboardCountersResponseSchema,
    );
  });
});
