/**
 * "Fast at any size", measured in one run: first load, API throughput on PostgreSQL and PGlite
 * with the peer's and a bare route's figures beside the portal's, assets, Lighthouse mobile, and
 * server time at ten thousand and at a million consents. Prints one table, each figure beside
 * its budget (README.md says what each part measures).
 *
 *   tsx run.ts            the whole bench; exits 1 when a budget is missed
 *   tsx run.ts --report   the same, as a report only: exits 1 only when something could not run
 *   tsx run.ts --smoke    tiny sizes and durations; checks only that every figure was measured
 *   tsx run.ts --api      the API on PostgreSQL alone, at the full load, without the customer of
 *                         a million consents: the screens' reads in minutes, budgets checked
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cpuProbes, loadAverage, machine, syscallProbe } from './host';
import { REPO_ROOT } from './processes';
import { Report } from './report';
import { onPglite, onPostgres } from './servers';
import { API_ONLY, FULL, SMOKE, type BenchRun } from './settings';
import { firstLoadRows } from './web-rows';

const { values: flags } = parseArgs({
  options: { smoke: { type: 'boolean' }, report: { type: 'boolean' }, api: { type: 'boolean' } },
});
const settings = flags.smoke ? SMOKE : flags.api ? API_ONLY : FULL;
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://portal:portal@localhost:5432/postgres';
const report = new Report();
const run: BenchRun = { settings, report, serverUrl, apiOnly: Boolean(flags.api) };

function buildWeb(outDir: string) {
  execFileSync(
    'npx',
    ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: path.join(REPO_ROOT, 'apps/web'),
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
}

const started = new Date();
const loadBefore = loadAverage();
const probeBefore = cpuProbes();
const syscallBefore = syscallProbe();
const describedMachine = await machine(serverUrl);
const work = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-'));
try {
  const webDist = path.join(work, 'web');
  buildWeb(webDist);
  firstLoadRows(report, webDist);
  await report.attempt('PostgreSQL', () => onPostgres(run, webDist, path.join(work, 'postgres')));
  if (!run.apiOnly) {
    report.startSection('PGlite');
    await report.attempt('PGlite', () => onPglite(run, webDist, work));
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

console.log(
  `\n${flags.smoke ? 'Smoke run' : 'Bench'} of ${started.toISOString().slice(0, 10)}: ${describedMachine}`,
);
console.log(
  `load average (1, 5, 15 min) before: ${loadBefore}; after: ${loadAverage()}; ${Math.round((Date.now() - started.getTime()) / 1000)} s`,
);
const probeAfter = cpuProbes();
const syscallAfter = syscallProbe();
const probeRange = (p: { fastest: number; slowest: number }) =>
  `${Math.round(p.fastest)} to ${Math.round(p.slowest)} ms`;
console.log(
  `CPU probe (a fixed loop, 5 times; lower is faster): before ${probeRange(probeBefore)}; after ${probeRange(probeAfter)}`,
);
console.log(
  `system call probe (a one-byte write to /dev/null): before ${syscallBefore.toFixed(2)} µs; after ${syscallAfter.toFixed(2)} µs`,
);
const probes = [probeBefore, probeAfter];
const spread =
  Math.max(...probes.map((p) => p.slowest)) / Math.min(...probes.map((p) => p.fastest));
if (spread > 1.25) {
  console.log(
    `Warning: the host's speed varied by ${spread.toFixed(2)}× during the run; the absolute figures (ms, req/s, Lighthouse) are not comparable with a steady run's.`,
  );
}
console.log('');
console.log(report.render());

const errors = report.count('ERROR');
const missed = report.count('FAIL');
if (flags.smoke) {
  console.log(
    errors
      ? `\nSmoke: ${errors} measurement(s) produced no figure.`
      : '\nSmoke: every measurement produced a figure (budgets not checked at these sizes).',
  );
  process.exitCode = errors ? 1 : 0;
} else {
  console.log(`\n${missed} budget(s) missed, ${errors} measurement(s) failed.`);
  process.exitCode = errors || (missed && !flags.report) ? 1 : 0;
}
