/** The web app's figures: its first load, the headers its assets are served with, Lighthouse. */
import { assetHeaders } from './assets';
import { BUDGET } from './budgets';
import { chunksWithoutCompileHint, dashboardFirstLoad, loginFirstLoad } from './first-load';
import { medianLighthouseScores, type PageScores } from './lighthouse';
import { signIn, type Portal } from './portal';
import type { Limit, Report } from './report';
import { accountOf } from './seed';
import type { BenchRun } from './settings';

export function firstLoadRows(report: Report, webDist: string) {
  report.startSection('/login first load');
  const load = loginFirstLoad(webDist);
  report.number(
    'JS, gzipped',
    load.gzipKiB,
    'KiB',
    1,
    { max: BUDGET.maxLoginFirstLoadGzipKiB },
    `${load.files} chunks, ${load.rawKiB.toFixed(1)} KiB raw`,
  );
  report.startSection('/dashboard first load (signed in)');
  const dashboard = dashboardFirstLoad(webDist);
  report.number(
    'JS, gzipped',
    dashboard.gzipKiB,
    'KiB',
    1,
    undefined,
    `${dashboard.files} chunks, ${dashboard.rawKiB.toFixed(1)} KiB raw`,
  );
  // zod and the contract's schemas come after the first render, in a chunk of their own
  const zod = dashboard.withZod;
  report.text('chunks carrying zod', zod.length ? zod.join(', ') : 'none', 'none', !zod.length);
  // each chunk is compiled as it streams in; none starts with a list of links for Vite's helper
  const unhinted = chunksWithoutCompileHint(webDist);
  report.text(
    "chunks without V8's compile hint on line 1",
    unhinted.length ? `${unhinted.length}: ${unhinted.slice(0, 5).join(', ')}…` : 'none',
    'none',
    !unhinted.length,
  );
}

export async function assetRows(report: Report, portal: Portal) {
  report.startSection('assets served by the portal');
  const headers = await assetHeaders(portal.url);
  report.text(
    `entry chunk content-encoding (${headers.entryChunk})`,
    headers.entryEncoding,
    BUDGET.entryEncodings.join(' or '),
    (BUDGET.entryEncodings as readonly string[]).includes(headers.entryEncoding),
  );
  const directives = (value: string) => new Set(value.split(',').map((d) => d.trim()));
  const holds = (value: string, wanted: string) =>
    [...directives(wanted)].every((d) => directives(value).has(d));
  report.text(
    'hashed assets cache-control',
    headers.hashedAssetCacheControl,
    BUDGET.hashedAssetCacheControl,
    holds(headers.hashedAssetCacheControl, BUDGET.hashedAssetCacheControl),
  );
  report.text(
    'index.html cache-control',
    headers.indexCacheControl,
    BUDGET.indexCacheControl,
    holds(headers.indexCacheControl, BUDGET.indexCacheControl),
  );
}

export async function lighthouseRows(
  { settings, report }: BenchRun,
  portal: Portal,
  route: string,
) {
  const signedIn = route !== '/login';
  report.startSection(`Lighthouse mobile, ${route}${signedIn ? ' (signed in)' : ''}`);
  const session = signedIn ? await signIn(portal, accountOf('small')) : undefined;
  const { median: scores, runs } = await medianLighthouseScores(
    portal.url + route,
    settings.lighthouseRuns,
    session,
  );
  const limits = BUDGET.lighthouse;
  const note = (pick: (s: PageScores) => number, digits: number) =>
    runs.length > 1 ? `median of ${runs.map((s) => pick(s).toFixed(digits)).join(', ')}` : '';
  const figure = (
    name: string,
    pick: (s: PageScores) => number,
    unit: string,
    digits: number,
    limit: Limit,
  ) => report.number(name, pick(scores), unit, digits, limit, note(pick, digits));
  figure('performance', (s) => s.performance, '', 0, { min: limits.minPerformance });
  figure('LCP', (s) => s.lcpSeconds, 's', 2, { max: limits.maxLcpSeconds });
  figure('TBT', (s) => s.tbtMs, 'ms', 0, { max: limits.maxTbtMs });
  figure('CLS', (s) => s.cls, '', 3, { max: limits.maxCls });
  figure('best practices', (s) => s.bestPractices, '', 0, { min: limits.minBestPractices });
  figure('accessibility', (s) => s.accessibility, '', 0, { min: limits.minAccessibility });
  report.number(
    "host's benchmark index (higher is faster)",
    scores.benchmarkIndex,
    '',
    0,
    undefined,
    note((s) => s.benchmarkIndex, 0),
  );
}
