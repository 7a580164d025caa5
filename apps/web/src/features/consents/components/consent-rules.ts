import {
  TOKEN_DISPLAY_LENGTH,
  type ConsentStatus,
  type DashboardCountersResponse,
} from '@portal/contract';

export type ConsentCounts = Record<'Total' | ConsentStatus, number>;

/** The five tiles, from the counters the server keeps. */
export function tileCounts(counters: DashboardCountersResponse['data']): ConsentCounts {
  return {
    Total: counters.totalConsents,
    Pending: counters.pendingConsents,
    Approved: counters.activeConsents,
    Rejected: counters.rejectedConsents,
    Expired: counters.expiredConsents,
  };
}

/** The APIs column: the first two, then how many more. */
export function summariseApis(apiList: string[]): { shown: string[]; more: number } {
  return { shown: apiList.slice(0, 2), more: Math.max(0, apiList.length - 2) };
}

/** Spec §9: tokens are shown cut to 50 characters. */
export function truncateToken(token: string): string {
  return token.length > TOKEN_DISPLAY_LENGTH ? `${token.slice(0, TOKEN_DISPLAY_LENGTH)}...` : token;
}
