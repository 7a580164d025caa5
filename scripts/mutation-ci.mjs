// The mutation subset CI runs on every change (docs/testing.md, "Mutation testing"): every file of
// Stryker's scope that changed in the last 30 days when that fits the budget, otherwise a window
// of the scope that moves with the commit, so that successive runs reach every file of it. Prints
// what it chose and why, and the command that runs the same subset again.
//
//   node scripts/mutation-ci.mjs                      choose, then run
//   node scripts/mutation-ci.mjs --seed 9f4fbd8       the window a given commit would get
//   node scripts/mutation-ci.mjs --files a.ts,b.ts:40-90 --tests c.test.ts   exactly this subset
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
// Stryker's own instrumenter (installed with @stryker-mutator/core, same version), so that the
// budget counts the very mutants the run will make
import { Instrumenter } from '@stryker-mutator/instrumenter';
import base from '../stryker.config.mjs';

// The budget, in estimated seconds of one CI run's mutation phase (2 cores, PGlite), measured on
// this project (docs/testing.md): the dry run takes about SECONDS_PER_TEST_FILE per test file
// (most build the app on a fresh database, one runner), and the mutants about
// SECONDS_PER_MUTANT each (static ones and compile errors cost next to nothing, the others run
// the tests that reach them, on the runners in parallel). A mutant count alone would let one
// directory's long dry run, or a file whose mutants are all tested, blow the budget.
const BUDGET_SECONDS = 360;
const SECONDS_PER_TEST_FILE = 6;
const SECONDS_PER_MUTANT = 3;
const RECENT = '30.days';

const { values: args } = parseArgs({
  options: {
    files: { type: 'string' },
    tests: { type: 'string' },
    seed: { type: 'string' },
  },
});

const git = (...gitArgs) => execFileSync('git', gitArgs, { encoding: 'utf8' }).trim();
const lines = (text) => text.split('\n').filter(Boolean);
const list = (text) => text.split(',').filter(Boolean);

/** The tests beside a file, as the project keeps them; the PostgreSQL-only ones cannot run here. */
function testsBeside(file) {
  const dir = path.posix.dirname(file);
  return lines(git('ls-files', '--', `${dir}/*.test.ts`)).filter(
    (test) => path.posix.dirname(test) === dir && !test.endsWith('.pg.test.ts'),
  );
}

function scope() {
  const include = base.mutate.filter((glob) => !glob.startsWith('!'));
  const exclude = base.mutate.filter((glob) => glob.startsWith('!')).map((glob) => glob.slice(1));
  // tracked files only: what CI checks out, not someone's build output beside the sources
  return lines(git('ls-files'))
    .filter((file) => include.some((glob) => path.matchesGlob(file, glob)))
    .filter((file) => !exclude.some((glob) => path.matchesGlob(file, glob)))
    .sort();
}

/** Each file's mutants that a run would test (not those under `Stryker disable`), by line. */
async function mutantSpans(files) {
  const quiet = () => false;
  const ignore = () => {};
  const log = {
    ...Object.fromEntries(
      ['trace', 'debug', 'info', 'warn', 'error', 'fatal'].map((l) => [l, ignore]),
    ),
    ...Object.fromEntries(
      ['Trace', 'Debug', 'Info', 'Warn', 'Error', 'Fatal'].map((l) => [`is${l}Enabled`, quiet]),
    ),
  };
  const { mutants } = await new Instrumenter(log).instrument(
    files.map((name) => ({ name, content: readFileSync(name, 'utf8'), mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [] },
  );
  const spans = new Map(files.map((file) => [file, []]));
  for (const mutant of mutants.filter((m) => m.status === undefined)) {
    // Stryker's lines count from 0, a mutate range's from 1
    spans.get(mutant.fileName).push([mutant.location.start.line + 1, mutant.location.end.line + 1]);
  }
  return spans;
}

/**
 * A file's parts of at most `max` mutants, as mutate ranges. A part ends where no mutant spans
 * the cut (between functions) when it can, as a mutant across a cut is in neither part.
 */
function parts(file, spans, max) {
  if (spans.length <= max) return [{ mutate: file, mutants: spans.length }];
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const result = [];
  let first = 0;
  while (first < sorted.length) {
    let last = Math.min(first + max, sorted.length) - 1;
    if (last < sorted.length - 1) {
      // the last cut inside this part that no mutant spans, if there is one
      let end = sorted[first][1];
      let clean = -1;
      for (let i = first; i <= last; i++) {
        end = Math.max(end, sorted[i][1]);
        if (end < sorted[i + 1][0]) clean = i;
      }
      if (clean >= 0) last = clean;
    }
    const from = first === 0 ? 1 : sorted[first][0];
    const to =
      last === sorted.length - 1
        ? readFileSync(file, 'utf8').split('\n').length
        : sorted[last + 1][0] - 1;
    result.push({ mutate: `${file}:${from}-${to}`, mutants: last - first + 1 });
    first = last + 1;
  }
  return result;
}

const fileOf = (mutate) => mutate.replace(/:\d+-\d+$/, '');
const testsOf = (chosen) => [
  ...new Set(chosen.flatMap((part) => testsBeside(fileOf(part.mutate)))),
];
const cost = (chosen) =>
  testsOf(chosen).length * SECONDS_PER_TEST_FILE +
  chosen.reduce((sum, part) => sum + part.mutants, 0) * SECONDS_PER_MUTANT;

async function choose() {
  const files = scope();
  const spans = await mutantSpans(files);
  const whole = (file) => ({ mutate: file, mutants: spans.get(file).length });

  if (git('rev-parse', '--is-shallow-repository') === 'true') {
    console.log('The history is shallow: what changed recently is unknown.');
  } else {
    const changed = new Set(
      lines(git('log', `--since=${RECENT}`, '--name-only', '--format=', 'HEAD')),
    );
    const recent = files.filter((file) => changed.has(file)).map(whole);
    if (recent.length > 0 && cost(recent) <= BUDGET_SECONDS) {
      return {
        chosen: recent,
        why: `the ${recent.length} files of the scope changed since ${RECENT} ago`,
      };
    }
    console.log(
      `${recent.length} files of the scope changed since ${RECENT} ago, about ${cost(recent)} s ` +
        `of mutation testing, over the budget of ${BUDGET_SECONDS} s.`,
    );
  }

  // the scope in path order, large files cut in parts so that every part fits the budget alone
  const maxMutants = Math.floor(BUDGET_SECONDS / 2 / SECONDS_PER_MUTANT);
  const all = files.flatMap((file) => parts(file, spans.get(file), maxMutants));
  const seed = args.seed ?? git('rev-parse', '--short=8', 'HEAD');
  const start = Number.parseInt(seed.slice(0, 8), 16) % all.length;
  const chosen = [all[start]];
  for (let i = 1; i < all.length; i++) {
    const next = [...chosen, all[(start + i) % all.length]];
    if (cost(next) > BUDGET_SECONDS) break;
    chosen.push(next.at(-1));
  }
  return {
    chosen,
    why:
      `a window of the scope (${files.length} files, ${all.length} parts in path order), from part ` +
      `${start + 1}, chosen by the commit ${seed} (its first 8 hex digits modulo ${all.length}), ` +
      `as long as the run stays within about ${BUDGET_SECONDS} s`,
  };
}

let mutate;
let tests;
if (args.files) {
  mutate = list(args.files);
  tests = args.tests ? list(args.tests) : testsOf(mutate.map((part) => ({ mutate: part })));
  console.log('Mutating the files given.');
} else {
  const { chosen, why } = await choose();
  mutate = chosen.map((part) => part.mutate);
  tests = testsOf(chosen);
  console.log(`Mutating ${why}:`);
  for (const part of chosen) console.log(`  ${part.mutate} (${part.mutants} mutants)`);
  console.log(`with the tests beside them (${tests.length} files), estimated ${cost(chosen)} s.`);
}
// without --testFiles the runner would take every test that imports the file, through the app
if (tests.length === 0) throw new Error(`No test beside ${mutate.join(', ')}`);
console.log(
  `The same run again: npm run test:mutation:ci -- --files ${mutate.join(',')} --tests ${tests.join(',')}`,
);

const run = spawnSync(
  'npx',
  [
    'stryker',
    'run',
    'stryker.ci.config.mjs',
    '--mutate',
    mutate.join(','),
    '--testFiles',
    tests.join(','),
  ],
  { stdio: 'inherit' },
);
process.exit(run.status ?? 1);
