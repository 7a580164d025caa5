import { describe, expect, it } from 'vitest';
import type { Consent } from '@portal/contract';
import { countConsents, summariseApis, truncateToken } from './consent-rules';

const c = (over: Partial<Consent>): Consent => ({
  _id: 'x',
  consentId: 'sbk-intent-1',
  consentStatus: 'Pending',
  partnerName: 'LedgerSync',
  partnerId: 'PTN-LEDGER',
  documentUploaded: 'N',
  apiList: [],
  netBankingUserId: null,
  accessToken: null,
  accessTokenExpiresAt: null,
  refreshToken: null,
  refreshTokenExpiresAt: null,
  createdAt: '2026-06-01T00:00:00.000Z',
  consentCreationDate: null,
  lastUpdated: '2026-06-01T00:00:00.000Z',
  ...over,
});

describe('countConsents', () => {
  it('counts the total and each status', () => {
    const counts = countConsents([
      c({ consentStatus: 'Pending' }),
      c({ consentStatus: 'Approved' }),
      c({ consentStatus: 'Approved' }),
      c({ consentStatus: 'Expired' }),
    ]);
    expect(counts).toEqual({ Total: 4, Pending: 1, Approved: 2, Rejected: 0, Expired: 1 });
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
