/**
 * Server time at size: every request the web app makes, sent one after another on loopback (so
 * a request's latency is the server's time plus a negligible hop), as the median of a series.
 */
import {
  authPaths,
  consentPaths,
  orderPaths,
  userConsentsPath,
  type ConsentListResponse,
} from '@portal/contract';
import type { Session } from './portal';

/** Not in the contract yet: the dashboard's counters, to replace loading every consent. */
export const DASHBOARD_COUNTERS_PATH = '/api/dashboard/counters';

export interface ScaleSettings {
  /** Requests in a series. */
  requests: number;
  /** A slow route ends its series after this long (it has one answer at least). */
  maxSeconds: number;
  /** One request that takes longer is given up on, and the series with it. */
  timeoutSeconds: number;
}

export type ServerTime =
  | { kind: 'measured'; p50Ms: number; requests: number }
  /** The route answers 404: it does not exist yet. */
  | { kind: 'absent' }
  | { kind: 'failed'; reason: string };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function serverTime(
  url: string,
  token: string,
  settings: ScaleSettings,
  later: boolean,
): Promise<ServerTime> {
  const times: number[] = [];
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  while (times.length < settings.requests && elapsed() < settings.maxSeconds) {
    const sent = performance.now();
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(settings.timeoutSeconds * 1000),
      });
      // the whole body: a long answer is part of the time it takes
      await res.arrayBuffer();
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      return {
        kind: 'failed',
        reason: timedOut
          ? `no answer within ${settings.timeoutSeconds} s`
          : `request failed: ${String(error)}`,
      };
    }
    const ms = performance.now() - sent;
    if (res.status === 404 && later) return { kind: 'absent' };
    if (!res.ok) return { kind: 'failed', reason: `answered ${res.status}` };
    times.push(ms);
  }
  return { kind: 'measured', p50Ms: median(times), requests: times.length };
}

export interface ScaleRequest {
  name: string;
  path: string;
  /** A route the issue asks for that may not exist yet. */
  later?: boolean;
}

const consentsPage = (userId: string, page: number, status?: string) =>
  `${consentPaths.list}?${new URLSearchParams({
    page: String(page),
    limit: '10',
    userId,
    ...(status ? { consentStatus: status } : {}),
  })}`;

async function lastPage(baseUrl: string, session: Session, status?: string) {
  const res = await fetch(baseUrl + consentsPage(session.userId, 1, status), {
    headers: { authorization: `Bearer ${session.token}` },
  });
  if (!res.ok) throw new Error(`the consents page answered ${res.status}`);
  const body = (await res.json()) as ConsentListResponse;
  return Math.max(1, body.pagination.total_pages);
}

/**
 * What the web app asks for, in the order measured. The dashboard's counters come from loading
 * every consent until the counters route exists; that request comes last, being the slowest.
 */
export async function webAppRequests(baseUrl: string, session: Session): Promise<ScaleRequest[]> {
  const { userId } = session;
  const headers = { authorization: `Bearer ${session.token}` };
  const last = await lastPage(baseUrl, session);
  const lastApproved = await lastPage(baseUrl, session, 'Approved');
  const middle = Math.ceil(last / 2);
  const counters = await fetch(baseUrl + DASHBOARD_COUNTERS_PATH, { headers });
  await counters.arrayBuffer();
  const countersToday = counters.status === 404;
  return [
    { name: 'consents page 1', path: consentsPage(userId, 1) },
    { name: 'consents Next (page 2)', path: consentsPage(userId, 2) },
    { name: 'consents middle page', path: consentsPage(userId, middle) },
    { name: 'consents last page', path: consentsPage(userId, last) },
    { name: 'consents status filter, page 1', path: consentsPage(userId, 1, 'Approved') },
    {
      name: 'consents status filter, last page',
      path: consentsPage(userId, lastApproved, 'Approved'),
    },
    { name: 'orders history', path: orderPaths.history },
    { name: 'profile', path: authPaths.profile },
    { name: 'dashboard counters', path: DASHBOARD_COUNTERS_PATH, later: true },
    ...(countersToday
      ? [{ name: 'dashboard counters today (every consent)', path: userConsentsPath(userId) }]
      : []),
  ];
}

export async function measureScale(baseUrl: string, session: Session, settings: ScaleSettings) {
  const results: { request: ScaleRequest; time: ServerTime }[] = [];
  for (const request of await webAppRequests(baseUrl, session)) {
    const later = request.later ?? false;
    results.push({
      request,
      time: await serverTime(baseUrl + request.path, session.token, settings, later),
    });
  }
  return results;
}
