import { describe, expect, it } from 'vitest';
import { summariseApis, tileCounts, truncateToken } from './consent-rules';

describe('tileCounts', () => {
  it("puts each of the server's counters on its tile", () => {
    const counts = tileCounts({
      totalConsents: 9,
      activeConsents: 2,
      pendingConsents: 1,
      expiredConsents: 4,
      rejectedConsents: 2,
      totalPlans: 3,
      totalOrders: 0,
      completedOrders: 0,
      pendingOrders: 0,
      failedOrders: 0,
    });
    expect(counts).toEqual({ Total: 9, Pending: 1, Approved: 2, Rejected: 2, Expired: 4 });
  });
});

describe('summariseApis', () => {
  it('shows the first two and counts the rest', () => {
    expect(summariseApis(['a', 'b', 'c', 'd'])).toEqual({ shown: ['a', 'b'], more: 2 });
    expect(summariseApis(['a', 'b'])).toEqual({ shown: ['a', 'b'], more: 0 });
    expect(summariseApis([])).toEqual({ shown: [], more: 0 });
  });
});

describe('truncateToken', () => {
  it('cuts a token to 50 characters', () => {
    expect(truncateToken('t'.repeat(80))).toBe(`${'t'.repeat(50)}...`);
    expect(truncateToken('t'.repeat(50))).toBe('t'.repeat(50));
  });
});
