/**
 * Lighthouse mobile on the signed-in /dashboard (or on /login, signed out) for two or more builds
 * of the web app, run in turn (A, B, A, B, ...) at the same time on the same machine, so that a
 * change's effect shows even when other work makes each figure swing. Each build is served by its
 * own portal over one fresh PostgreSQL database, seeded with the bench's customer of 10,000
 * consents.
 *
 *   tsx lighthouse-compare.ts [--runs 3] [--page dashboard|login] <web dist> <web dist> ...
 *
 * A web dist is the output of `npx vite build --outDir <dir>` in apps/web.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freshPostgresDatabase, prepareDatabase } from './database';
import { lighthouseScores, type PageScores } from './lighthouse';
import { signIn, startPortal, type Portal, type Session } from './portal';
import { accountOf } from './seed';
import { median } from './stats';

const { values: flags, positionals: builds } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    page: { type: 'string', default: 'dashboard' },
  },
  allowPositionals: true,
});
const runs = Number(flags.runs);
const signedIn = flags.page === 'dashboard';
if (
  builds.length < 1 ||
  !Number.isInteger(runs) ||
  runs < 1 ||
  !['dashboard', 'login'].includes(flags.page)
) {
  throw new Error(
    'usage: tsx lighthouse-compare.ts [--runs N] [--page dashboard|login] <web dist> <web dist> ...',
  );
}
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? 'postgres://portal:portal@localhost:5432/postgres';

const load = () => os.loadavg()[0]!.toFixed(1);

const work = await mkdtemp(path.join(os.tmpdir(), 'portal-lighthouse-'));
const database = await freshPostgresDatabase(serverUrl);
const portals: Portal[] = [];
try {
  await prepareDatabase(
    { DATABASE_URL: database.url, DATA_DIR: work },
    {
      measured: { '10k': { consents: 10_000, orders: 1_000 } },
      others: { customers: 10, consents: 20, orders: 5 },
    },
  );
  const served: { dist: string; portal: Portal; session?: Session; scores: PageScores[] }[] = [];
  for (const [index, dist] of builds.entries()) {
    const dataDir = path.join(work, String(index));
    const portal = await startPortal({
      dataDir,
      webDist: path.resolve(dist),
      databaseUrl: database.url,
    });
    portals.push(portal);
    // /login is scored signed out: no session to make
    const session = signedIn ? await signIn(portal, accountOf('10k')) : undefined;
    served.push({ dist, portal, session, scores: [] });
  }
  for (let run = 1; run <= runs; run++) {
    for (const build of served) {
      const before = load();
      const scores = await lighthouseScores(`${build.portal.url}/${flags.page}`, build.session);
      build.scores.push(scores);
      console.log(
        `run ${run} ${build.dist}: performance ${scores.performance}, TBT ${Math.round(scores.tbtMs)} ms, ` +
          `benchmark index ${Math.round(scores.benchmarkIndex)}, ` +
          `LCP ${scores.lcpSeconds.toFixed(2)} s, CLS ${scores.cls.toFixed(3)} (load ${before} to ${load()})`,
      );
    }
  }
  console.log(`\nmedians of ${runs}:`);
  for (const { dist, scores } of served) {
    const of = (pick: (s: PageScores) => number) => median(scores.map(pick));
    console.log(
      `${dist}: performance ${of((s) => s.performance)}, TBT ${Math.round(of((s) => s.tbtMs))} ms ` +
        `(${scores.map((s) => Math.round(s.tbtMs)).join(', ')}), LCP ${of((s) => s.lcpSeconds).toFixed(2)} s`,
    );
  }
} finally {
  await Promise.all(portals.map((portal) => portal.stop()));
  await database.drop();
  await rm(work, { recursive: true, force: true });
}
