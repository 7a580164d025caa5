/** What the portal's metrics cost it on the consents page (decision 060). */
import { measureThroughput, turnOfLoad } from './api';
import { BUDGET } from './budgets';
import type { Portal } from './portal';
import { cpuSeconds } from './processes';
import {
  mainThreadProfile,
  monotonicMicroseconds,
  shareOfBusyTime,
  type CallFrame,
} from './profile';
import { count } from './report';
import type { Settings, BenchRun } from './settings';
import { meanWithSpread } from './stats';

/**
 * `first` against `second` on one route, in short turns: pairs of alternating order, as the host's
 * speed drifts by a quarter within a minute, each pair giving the ratios of two neighbouring turns.
 * `throughput`: first's requests a second ÷ second's, which the host's other work moves by several
 * per cent from turn to turn. `perCore`: the requests a second of its own CPU that each process
 * served, first's ÷ second's; a Node process serves on one thread, so this is the throughput each
 * would reach with a core to itself, and what the host's scheduling does to the wall clock is out
 * of it. Each is the mean of the pairs' ratios with two standard errors.
 */
async function pairedRatio(
  settings: Settings,
  first: Portal,
  second: Portal,
  route: string,
  headers: Record<string, string>,
  beforeTurn: (portal: Portal) => void = () => {},
) {
  const { connections } = settings.load;
  const { pairs, turnSeconds } = settings.metricsCost;
  const turn = async (portal: Portal) => {
    beforeTurn(portal);
    return turnOfLoad(
      { url: portal.url + route, pid: portal.pid, headers },
      connections,
      turnSeconds,
    );
  };
  const throughput: number[] = [];
  const perCore: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    const [a, b] = pair % 2 === 0 ? [first, second] : [second, first];
    const ran = new Map([
      [a, await turn(a)],
      [b, await turn(b)],
    ]);
    const [ofFirst, ofSecond] = [ran.get(first)!, ran.get(second)!];
    throughput.push(ofFirst.requestsPerSecond / ofSecond.requestsPerSecond);
    perCore.push(ofSecond.cpuMsPerRequest / ofFirst.cpuMsPerRequest);
  }
  return { throughput: meanWithSpread(throughput), perCore: meanWithSpread(perCore) };
}

/**
 * The metrics' cost on the consents page, from two portals against each other in turns: the
 * portal as deployed (metrics served, and read at every turn of its load, more often than
 * Prometheus would) against the same portal with them off (`unwatched[0]`); beside it, the same
 * measure between that one and `unwatched[1]`, both without metrics, which shows how far two
 * identical processes differ on this host: too far to tell 3 % (decision 060), so these rows are
 * shown with their spread and the budget holds the profile's figure (`metricsShareRows`).
 */
export async function metricsPairRows(
  { settings, report }: BenchRun,
  watched: Portal,
  unwatched: [Portal, Portal],
  route: string,
  headers: Record<string, string>,
) {
  const { metricsUrl } = watched;
  if (!metricsUrl) throw new Error('the watched portal serves no metrics');
  // the portals without metrics have served nothing yet: the warm-up of every measured route
  for (const portal of unwatched) {
    await measureThroughput({ url: portal.url + route, pid: portal.pid, headers }, settings.load);
  }
  const { pairs, turnSeconds } = settings.metricsCost;
  const cost = await pairedRatio(settings, watched, unwatched[0], route, headers, (portal) => {
    if (portal === watched) void fetch(metricsUrl).then((res) => res.text());
  });
  const twins = await pairedRatio(settings, unwatched[0], unwatched[1], route, headers);
  const compared = [
    ['consents page with metrics ÷ without', cost],
    ['two portals without metrics, the last started ÷ the first', twins],
  ] as const;
  for (const [label, ratios] of compared) {
    for (const [measure, { mean, spread }] of [
      [`requests per CPU second (${pairs} pairs of ${turnSeconds} s turns)`, ratios.perCore],
      ['requests a second', ratios.throughput],
    ] as const) {
      report.number(
        `${label}, ${measure}`,
        mean,
        '×',
        3,
        undefined,
        `± ${spread.toFixed(3)}, two standard errors`,
      );
    }
  }
}

/** The metrics' code: prom-client, and the portal's metrics module with its request hook. */
const isMetricsCode = ({ url }: CallFrame) =>
  url.includes('/node_modules/prom-client/') || url.includes('/apps/server/src/modules/metrics/');

/** Scrapes whose CPU is read together: /proc counts CPU in hundredths of a second. */
const SCRAPES_MEASURED = 50;

/**
 * What the metrics take of a portal's CPU while it serves `route`, read in one process, which
 * the differences between processes cannot move: `profiled` (metrics on) was started with V8's
 * sampling profiler. Its share of busy time in the metrics' code while it serves (the request
 * hook, the histogram, the process's collectors), plus the CPU of a scrape (measured apart: its
 * database reads answer after its own code has returned, where a profile would not find them)
 * as a share of what the portal spends serving between two scrapes, at one scrape a turn. A
 * portal serves on one thread, so this share is what the metrics take of its throughput.
 */
export async function metricsShareRows(
  { settings, report }: BenchRun,
  profiled: Portal,
  profileDir: string,
  route: string,
  headers: Record<string, string>,
) {
  const { metricsUrl } = profiled;
  if (!metricsUrl) throw new Error('the profiled portal serves no metrics');
  const target = { url: profiled.url + route, pid: profiled.pid, headers };
  const { connections, warmUpSeconds } = settings.load;
  const { profileSeconds, turnSeconds } = settings.metricsCost;
  await turnOfLoad(target, connections, warmUpSeconds);
  const from = monotonicMicroseconds();
  const served = await turnOfLoad(target, connections, profileSeconds);
  const window = { from, to: monotonicMicroseconds() };
  const cpuBefore = cpuSeconds(profiled.pid);
  for (let scrape = 0; scrape < SCRAPES_MEASURED; scrape++) {
    await (await fetch(metricsUrl)).text();
  }
  const scrapeMs = ((cpuSeconds(profiled.pid) - cpuBefore) * 1000) / SCRAPES_MEASURED;
  await profiled.stop();
  const profile = await mainThreadProfile(profileDir);
  const { share, busySamples } = shareOfBusyTime(profile, window, isMetricsCode);
  const servingMsPerTurn = served.cpuMsPerRequest * served.requestsPerSecond * turnSeconds;
  report.number(
    "consents page: the metrics' code in the portal's busy time",
    share * 100,
    '%',
    2,
    undefined,
    `${count(busySamples)} samples of ${profileSeconds} s`,
  );
  report.number(`a scrape: CPU of the portal (${SCRAPES_MEASURED} scrapes)`, scrapeMs, 'ms', 1);
  report.number(
    `consents page: the metrics' share of the portal's CPU, a scrape every ${turnSeconds} s`,
    (share + scrapeMs / servingMsPerTurn) * 100,
    '%',
    2,
    { max: BUDGET.maxMetricsCpuPercent },
  );
}
