/** Throughput, latency and CPU of the portal's routes, the peer's consents page and a bare route. */
import { consentPaths, screenReads } from '@portal/contract';
import { TIMEOUT_SECONDS, measureThroughput, type Throughput } from './api';
import { BUDGET } from './budgets';
import { metricsPairRows, metricsShareRows } from './metrics-cost';
import { signIn, type Portal } from './portal';
import type { ServerProcess } from './processes';
import { size, type Limit } from './report';
import { accountOf } from './seed';
import type { BenchRun } from './settings';

/** Which budgets apply: the portal's own routes have them, the peer and the bare route none. */
interface Budgeted {
  p99Ms?: number;
  cpu?: boolean;
}

/** Req/s, latency and CPU of one route. */
export function throughputRows(
  { settings, report }: BenchRun,
  label: string,
  t: Throughput,
  budgeted: Budgeted,
) {
  report.number(`${label}: throughput`, t.requestsPerSecond, 'req/s', 0);
  // autocannon measures latency in whole milliseconds
  report.number(`${label}: p50`, t.p50Ms, 'ms', 0);
  report.number(
    `${label}: p99`,
    t.p99Ms,
    'ms',
    0,
    budgeted.p99Ms === undefined ? undefined : { max: budgeted.p99Ms },
    [
      `in the ${settings.load.warmUpSeconds} s of warm-up before: ${t.warmUpP99Ms} ms`,
      t.timeouts ? `${t.timeouts} requests had no answer within ${TIMEOUT_SECONDS} s` : '',
    ]
      .filter(Boolean)
      .join('; '),
  );
  report.number(
    `${label}: CPU per request`,
    t.cpuMsPerRequest,
    'ms',
    3,
    budgeted.cpu ? { max: BUDGET.maxCpuMsPerRequest } : undefined,
  );
}

/** A consent's fields in the spec (§ data model), in the order the peer writes them. */
const SPEC_CONSENT_FIELDS = [
  '_id',
  'consentId',
  'consentStatus',
  'partnerName',
  'partnerId',
  'documentUploaded',
  'apiList',
  'netBankingUserId',
  'accessToken',
  'accessTokenExpiresAt',
  'refreshToken',
  'refreshTokenExpiresAt',
  'createdAt',
  'consentCreationDate',
  'lastUpdated',
];

export const consentsPage = (userId: string) =>
  `${consentPaths.list}?page=1&limit=10&userId=${userId}`;

export async function apiRows(
  run: BenchRun,
  portal: Portal,
  unwatched: [Portal, Portal],
  profiled: { portal: Portal; dir: string },
  peer: ServerProcess,
  bare: ServerProcess,
) {
  const { settings, report } = run;
  const { connections, seconds } = settings.load;
  const { small } = settings.seed.measured;
  report.startSection(
    `API on PostgreSQL: ${connections} connections, ${seconds} s a route, the customer with ${size(small.consents)} consents`,
  );
  const session = await signIn(portal, accountOf('small'));
  const headers = { authorization: `Bearer ${session.token}` };
  const page = consentsPage(session.userId);
  const [ours, theirs] = await Promise.all(
    [portal, peer].map(async (server) => (await fetch(server.url + page, { headers })).text()),
  );
  // the spec's answer, field for field; the portal's Next/Previous cursors and each consent's
  // terms (purpose, accounts, last access...) are its own additions, which the peer (the spec's
  // page written plainly) has no reason to make
  const answer = JSON.parse(ours!) as Record<string, unknown> & {
    data: Record<string, unknown>[];
  };
  const { cursors: _cursors, ...rest } = answer;
  const spec = {
    ...rest,
    data: answer.data.map((consent) =>
      Object.fromEntries(SPEC_CONSENT_FIELDS.map((field) => [field, consent[field]])),
    ),
  };
  if (JSON.stringify(spec) !== theirs) {
    throw new Error(`the peer answers otherwise than the portal: ${theirs}`);
  }

  // each route on its own: one that fails under load leaves the others' figures standing
  const measured = new Map<string, Throughput>();
  const load = (label: string, server: ServerProcess, route: string, budgeted: Budgeted) =>
    report.attempt(label, async () => {
      const target = { url: server.url + route, pid: server.pid, headers };
      const throughput = await measureThroughput(target, settings.load);
      throughputRows(run, label, throughput, budgeted);
      measured.set(label, throughput);
    });
  const ratio = (label: string, of: string, to: string, digits: number, limit?: Limit) => {
    const [a, b] = [measured.get(of), measured.get(to)];
    if (a && b) report.number(label, a.requestsPerSecond / b.requestsPerSecond, '×', digits, limit);
    else report.error(label, `no throughput of ${a ? to : of}`);
  };
  await load('bare Fastify route', bare, '/bare', {});
  await load('peer consents page', peer, page, {});
  await load('consents page', portal, page, { p99Ms: BUDGET.maxP99Ms, cpu: true });
  ratio('consents page ÷ peer', 'consents page', 'peer consents page', 2, {
    min: BUDGET.minConsentsToPeerRatio,
  });
  ratio('consents page ÷ bare route', 'consents page', 'bare Fastify route', 3);
  await report.attempt('metrics cost', () =>
    metricsPairRows(run, portal, unwatched, page, headers),
  );
  await report.attempt('metrics share', () =>
    metricsShareRows(run, profiled.portal, profiled.dir, page, headers),
  );
  // every other screen's read, the session in its own statement (decision 076), against the
  // peer's consents page: the consents page itself is measured above
  const { consents: _consentsPage, ...others } = screenReads(session.userId);
  for (const [screen, route] of Object.entries(others)) {
    await load(screen, portal, route, { p99Ms: BUDGET.maxP99Ms, cpu: CPU_BUDGETED.has(screen) });
    ratio(`${screen} ÷ peer consents page`, screen, 'peer consents page', 2, {
      min: BUDGET.minScreenToPeerRatio,
    });
  }
}

/** The screens held to the CPU budget of a request since decisions 046 to 053. */
const CPU_BUDGETED = new Set(['orders history', 'profile']);
