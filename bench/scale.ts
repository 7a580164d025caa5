/**
 * Server time at size: every request the web app makes, sent one after another on loopback (so
 * a request's latency is the server's time plus a negligible hop), as the median of a series.
 */
import {
  DASHBOARD_ACTIVITY_CONSENTS,
  authPaths,
  consentPaths,
  dashboardPaths,
  orderPaths,
  type ConsentListResponse,
} from '@portal/contract';
import type { Session } from './portal';
import { median } from './stats';

export interface ScaleSettings {
  /** Requests in a series. */
  requests: number;
  /** A slow route ends its series after this long (it has one answer at least). */
  maxSeconds: number;
  /** One request that takes longer is given up on, and the series with it. */
  timeoutSeconds: number;
}

export type ServerTime =
  { kind: 'measured'; p50Ms: number; requests: number } | { kind: 'failed'; reason: string };

/** One request's time, or why it has none. */
async function timeOne(
  url: string,
  token: string,
  settings: ScaleSettings,
): Promise<{ ms: number } | { failed: string }> {
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
      failed: timedOut
        ? `no answer within ${settings.timeoutSeconds} s`
        : `request failed: ${String(error)}`,
    };
  }
  const ms = performance.now() - sent;
  return res.ok ? { ms } : { failed: `answered ${res.status}` };
}

/**
 * The series of each size for one request, taken in turn (small, large, small…): a change in the
 * host's speed during the series falls on both sizes alike, and not on their ratio. A size whose
 * request fails stops its own series only.
 */
async function serverTimes(
  targets: { url: string; token: string }[],
  settings: ScaleSettings,
): Promise<ServerTime[]> {
  const times = targets.map(() => [] as number[]);
  const failures: (string | null)[] = targets.map(() => null);
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const running = (i: number) => failures[i] === null && times[i]!.length < settings.requests;
  while (targets.some((_, i) => running(i)) && elapsed() < settings.maxSeconds) {
    for (const [i, target] of targets.entries()) {
      if (!running(i)) continue;
      const time = await timeOne(target.url, target.token, settings);
      if ('ms' in time) times[i]!.push(time.ms);
      else failures[i] = time.failed;
    }
  }
  return targets.map((_, i) =>
    failures[i] !== null
      ? { kind: 'failed', reason: failures[i]! }
      : { kind: 'measured', p50Ms: median(times[i]!), requests: times[i]!.length },
  );
}

export interface ScaleRequest {
  name: string;
  path: string;
}

type ListQuery = Record<string, string>;

const consentsList = (userId: string, query: ListQuery) =>
  `${consentPaths.list}?${new URLSearchParams({ limit: '10', userId, ...query })}`;

/** One answer of the consents list, read once while the series are set up. */
async function listAnswer(baseUrl: string, session: Session, query: ListQuery) {
  const res = await fetch(baseUrl + consentsList(session.userId, query), {
    headers: { authorization: `Bearer ${session.token}` },
  });
  if (!res.ok) throw new Error(`the consents list answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as ConsentListResponse;
}

/** The request behind a cursor of an answer; a missing one means the list is too short. */
function follow(userId: string, query: ListQuery, cursor: string | null, key: 'after' | 'before') {
  if (!cursor) throw new Error(`the consents list has no ${key} cursor here: too few consents`);
  const { page: _page, ...rest } = query;
  return consentsList(userId, { ...rest, [key]: cursor });
}

/**
 * What the web app asks for, in the order measured: the consents screen's page 1, its Next and
 * Previous (by the cursors of the page shown, as the screen follows them), a Next from the
 * middle of the list, the last page and Previous from it, the same through the status filter,
 * the dashboard's counters and first consents, orders history and the profile.
 */
export async function webAppRequests(baseUrl: string, session: Session): Promise<ScaleRequest[]> {
  const { userId } = session;
  const approved = { consentStatus: 'Approved' };
  const first = await listAnswer(baseUrl, session, { page: '1' });
  const last = Math.max(1, first.pagination.total_pages);
  const second = await listAnswer(baseUrl, session, { after: first.cursors.next ?? '' });
  // reaching the middle by Next would take 50,000 requests: a bare page number finds it once
  const middle = await listAnswer(baseUrl, session, { page: String(Math.ceil(last / 2)) });
  const lastAnswer = await listAnswer(baseUrl, session, { page: String(last) });
  const firstApproved = await listAnswer(baseUrl, session, { ...approved, page: '1' });
  const lastApproved = Math.max(1, firstApproved.pagination.total_pages);
  const lastApprovedAnswer = await listAnswer(baseUrl, session, {
    ...approved,
    page: String(lastApproved),
  });
  return [
    { name: 'consents page 1', path: consentsList(userId, { page: '1' }) },
    { name: 'consents Next (page 2)', path: follow(userId, {}, first.cursors.next, 'after') },
    {
      name: 'consents Previous (page 2 to 1)',
      path: follow(userId, {}, second.cursors.previous, 'before'),
    },
    {
      name: 'consents Next from the middle page',
      path: follow(userId, {}, middle.cursors.next, 'after'),
    },
    { name: 'consents last page', path: consentsList(userId, { page: String(last) }) },
    {
      name: 'consents Previous from the last page',
      path: follow(userId, {}, lastAnswer.cursors.previous, 'before'),
    },
    {
      name: 'consents status filter, page 1',
      path: consentsList(userId, { ...approved, page: '1' }),
    },
    {
      name: 'consents status filter, Next',
      path: follow(userId, approved, firstApproved.cursors.next, 'after'),
    },
    {
      name: 'consents status filter, last page',
      path: consentsList(userId, { ...approved, page: String(lastApproved) }),
    },
    {
      name: 'consents status filter, Previous from the last page',
      path: follow(userId, approved, lastApprovedAnswer.cursors.previous, 'before'),
    },
    {
      name: 'dashboard counters',
      path: `${dashboardPaths.counters}?${new URLSearchParams({ userId })}`,
    },
    {
      name: 'dashboard first consents',
      path: consentsList(userId, { page: '1', limit: String(DASHBOARD_ACTIVITY_CONSENTS) }),
    },
    { name: 'orders history', path: orderPaths.history },
    { name: 'profile', path: authPaths.profile },
  ];
}

/**
 * Each request the web app makes, timed for every session (the customers of each size) in turn;
 * answers each request with its time for each session, in the sessions' order.
 */
export async function measureScale(
  baseUrl: string,
  sessions: Session[],
  settings: ScaleSettings,
): Promise<{ name: string; times: ServerTime[] }[]> {
  const requests = await Promise.all(sessions.map((s) => webAppRequests(baseUrl, s)));
  const results: { name: string; times: ServerTime[] }[] = [];
  for (const [n, { name }] of requests[0]!.entries()) {
    const targets = sessions.map((session, i) => ({
      url: baseUrl + requests[i]![n]!.path,
      token: session.token,
    }));
    results.push({ name, times: await serverTimes(targets, settings) });
  }
  return results;
}
