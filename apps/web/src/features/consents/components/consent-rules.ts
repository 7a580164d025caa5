import {
  CONSENT_STATUSES,
  TOKEN_DISPLAY_LENGTH,
  type Consent,
  type ConsentStatus,
} from '@portal/contract';

export type ConsentCounts = Record<'Total' | ConsentStatus, number>;

export function countConsents(consents: Consent[]): ConsentCounts {
  const counts: ConsentCounts = {
    Total: consents.length,
    Pending: 0,
    Approved: 0,
    Rejected: 0,
    Expired: 0,
  };
  for (const c of consents) {
    if ((CONSENT_STATUSES as readonly string[]).includes(c.consentStatus))
      counts[c.consentStatus] += 1;
  }
  return counts;
}

/** The APIs column: the first two, then how many more. */
export function summariseApis(apiList: string[]): { shown: string[]; more: number } {
  return { shown: apiList.slice(0, 2), more: Math.max(0, apiList.length - 2) };
}

/** Spec §9: tokens are shown cut to 50 characters. */
export function truncateToken(token: string): string {
  return token.length > TOKEN_DISPLAY_LENGTH ? `${token.slice(0, TOKEN_DISPLAY_LENGTH)}...` : token;
}
