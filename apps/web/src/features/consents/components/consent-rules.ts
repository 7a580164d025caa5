import { formatDate } from '@/lib/format';
import {
  TOKEN_DISPLAY_LENGTH,
  type Consent,
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

/** The transaction period in words; an open end says so. */
export function transactionPeriod(
  consent: Pick<Consent, 'transactionFromDateTime' | 'transactionToDateTime'>,
): string {
  const from = consent.transactionFromDateTime;
  const to = consent.transactionToDateTime;
  if (from && to) return `${formatDate(from)} to ${formatDate(to)}`;
  if (from) return `From ${formatDate(from)} onwards`;
  if (to) return `Up to ${formatDate(to)}`;
  return 'All transactions the bank holds';
}
