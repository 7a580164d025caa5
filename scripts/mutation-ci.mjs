// The mutation subset CI runs on every change (docs/testing.md, "Mutation testing"): every file of
// Stryker's scope that changed in the last 30 days when that fits the budget, otherwise a window
// of the scope that moves on with each commit, so that successive runs reach every file of it. Prints
// what it chose and why, and the command that runs the same subset again.
//
//   node scripts/mutation-ci.mjs                      choose, then run
//   node scripts/mutation-ci.mjs --seed 412           the window of the 412th commit
//   node scripts/mutation-ci.mjs --budget 180         a window of about 180 s
//   node scripts/mutation-ci.mjs --plan               say what would run, and stop
//   node scripts/mutation-ci.mjs --files a.ts,b.ts:40-90 --tests c.test.ts   exactly this subset
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
// Stryker's own instrumenter (installed with @stryker-mutator/core, same version), so that the
// budget counts the very mutants the run will make
import { Instrumenter } from '@stryker-mutator/instrumenter';
import base from '../stryker.config.mjs';

// The budget: CI gives mutation testing about 5 minutes on 2 cores (PGlite, --budget 300). The
// dry run builds the app on a fresh database for each test file; the test files share their
// modules (vitest.mutation.config.ts), which took the auth directory's 15 files from 10 to 20 s
// each on a busy machine to under 5 s on a quiet one (145 tests in 70 s). The mutation phase took
// 9 to 10 s per mutant counted below, the static ones and compile errors included (lib/history-cursor.ts:
// 41 mutants, 6 min 20 s; auth/access-token.ts lines 98-119: 8 mutants, 70 s). So a run is priced
// by both, with room for a busier host: a mutant count alone would let a directory's long dry run
// through. The default of 420 s suits a run by hand; --budget sets another.
const SECONDS_PER_TEST_FILE = 8;
const SECONDS_PER_MUTANT = 9;
const RECENT = '30.days';
const { values: args } = parseArgs({
  options: {
    files: { type: 'string' },
    tests: { type: 'string' },
    seed: { type: 'string' },
    budget: { type: 'string', default: '420' },
    plan: { type: 'boolean', default: false },
  },
});
const BUDGET_SECONDS = Number(args.budget);
if (!(BUDGET_SECONDS > 0)) throw new Error(`--budget takes seconds, not ${args.budget}`);

const git = (...gitArgs) => execFileSync('git', gitArgs, { encoding: 'utf8' }).trim();
const lines = (text) => text.split('\n').filter(Boolean);
const list = (text) => text.split(',').filter(Boolean);

/** Every test file, as CI checks it out; the PostgreSQL-only ones cannot run here. */
const testFiles = () =>
  lines(git('ls-files', '--', '*.test.ts')).filter((test) => !test.endsWith('.pg.test.ts'));

/** The project's files a test imports by a relative path, without their extension. */
function relativeImports(test) {
  const specifiers = readFileSync(test, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g);
  return [...specifiers].map(([, specifier]) =>
    path.posix.join(path.posix.dirname(test), specifier),
  );
}

/**
 * A file's tests: those beside it, as the project keeps them, and any elsewhere that import it,
 * which code moved to another folder (or shared by several) keeps.
 */
function testsBeside(file) {
  const dir = path.posix.dirname(file);
  const stem = file.replace(/\.ts$/, '');
  return testFiles().filter(
    (test) => path.posix.dirname(test) === dir || relativeImports(test).includes(stem),
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
 * A file's parts of at most `max` mutants, as line ranges. A part ends where no mutant spans the
 * cut (between functions) when it can, as a mutant across a cut is in neither part.
 */
function parts(file, spans, max) {
  const length = readFileSync(file, 'utf8').split('\n').length;
  if (spans.length <= max) return [{ file, from: 1, to: length, length, mutants: spans.length }];
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
    const to = last === sorted.length - 1 ? length : sorted[last + 1][0] - 1;
    result.push({ file, from, to, length, mutants: last - first + 1 });
    first = last + 1;
  }
  return result;
}

/** Neighbouring parts of one file as one range, so that mutants across their cut are made too. */
function joined(chosen) {
  const result = [];
  for (const part of chosen) {
    const previous = result.at(-1);
    if (previous?.file === part.file && previous.to + 1 === part.from) {
      result[result.length - 1] = {
        ...previous,
        to: part.to,
        mutants: previous.mutants + part.mutants,
      };
    } else result.push(part);
  }
  return result;
}

const target = ({ file, from, to, length }) =>
  from === 1 && to === length ? file : `${file}:${from}-${to}`;
const testsOf = (files) => [...new Set(files.flatMap(testsBeside))];
const cost = (chosen) =>
  testsOf(chosen.map((part) => part.file)).length * SECONDS_PER_TEST_FILE +
  chosen.reduce((sum, part) => sum + part.mutants, 0) * SECONDS_PER_MUTANT;

/**
 * The subset to run: the files changed recently, or a window. With `skip` (after a choice that
 * made no mutant that compiles) always a window, that many parts on from the commit's own.
 */
async function choose(skip = null) {
  const files = scope();
  const spans = await mutantSpans(files);
  const whole = (file) => parts(file, spans.get(file), Infinity)[0];

  if (skip !== null) {
    console.log(`The window ${skip} parts on from the commit's own.`);
  } else if (git('rev-parse', '--is-shallow-repository') === 'true') {
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

  // the scope in path order, large files cut in parts so that every part fits the budget alone,
  // with the dry run of the tests beside it
  // a file whose tests alone outlast the budget is cut into parts of one mutant, each a run
  const room = (file) =>
    Math.max(
      1,
      Math.floor(
        (BUDGET_SECONDS - testsBeside(file).length * SECONDS_PER_TEST_FILE) / SECONDS_PER_MUTANT,
      ),
    );
  const all = files.flatMap((file) => parts(file, spans.get(file), room(file)));
  // the commit's place in the history: each commit starts where the previous one's window did,
  // plus one part, so that every part is reached within as many commits as there are parts; a
  // shallow clone knows no count, and walks by the day instead
  const shallow = git('rev-parse', '--is-shallow-repository') === 'true';
  const seed = Number(
    args.seed ??
      (shallow ? Math.floor(Date.now() / 86_400_000) : git('rev-list', '--count', 'HEAD')),
  );
  const start = (seed + (skip ?? 0)) % all.length;
  const chosen = [all[start]];
  for (let i = 1; i < all.length; i++) {
    const next = [...chosen, all[(start + i) % all.length]];
    if (cost(next) > BUDGET_SECONDS) break;
    chosen.push(next.at(-1));
  }
  return {
    chosen: joined(chosen),
    parts: chosen.length,
    why:
      `a window of the scope (${files.length} files, ${all.length} parts in path order), from part ` +
      `${start + 1}, chosen by ${shallow && !args.seed ? 'the day' : "the commit's number"} ${seed} (modulo ${all.length}), ` +
      `as long as the run stays within about ${BUDGET_SECONDS} s`,
  };
}

/** Runs Stryker on `mutate` with `tests`; answers its exit code and how many mutants it tested. */
function mutationRun(mutate, tests) {
  // without --testFiles the runner would take every test that imports the file, through the app
  if (tests.length === 0) throw new Error(`No test beside ${mutate.join(', ')}`);
  console.log(
    `The same run again: npm run test:mutation:ci -- --files ${mutate.join(',')} --tests ${tests.join(',')}`,
  );
  if (args.plan) process.exit(0);
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
  const status = run.status ?? 1;
  // a failed run may have written no report: its exit code is the answer
  return { status, tested: status === 0 ? testedMutants() : null };
}

/**
 * The mutants of the last run that a test could judge: those the type checker refused score
 * nothing, and a run of nothing else scores NaN, which Stryker lets pass its threshold.
 */
function testedMutants() {
  const report = JSON.parse(readFileSync('reports/mutation/ci/mutation.json', 'utf8'));
  const judged = ['Killed', 'Survived', 'Timeout', 'NoCoverage'];
  return Object.values(report.files)
    .flatMap((file) => file.mutants)
    .filter((mutant) => judged.includes(mutant.status)).length;
}

if (args.files) {
  const mutate = list(args.files);
  const tests = args.tests
    ? list(args.tests)
    : testsOf(mutate.map((part) => part.replace(/:[\d-]+$/, '')));
  console.log('Mutating the files given.');
  const { status, tested } = mutationRun(mutate, tests);
  if (status === 0 && tested === 0) console.log('No mutant of these compiled: nothing was tested.');
  process.exit(status);
}

// a window whose every mutant the type checker refuses tests nothing: the next one runs instead,
// at most twice, so that the gate always judges some tests
let skip = null;
for (let attempt = 0; attempt < 3; attempt++) {
  const { chosen, why, parts: count } = await choose(skip);
  const mutate = chosen.map(target);
  const tests = testsOf(chosen.map((part) => part.file));
  console.log(`Mutating ${why}:`);
  for (const part of chosen) console.log(`  ${target(part)} (${part.mutants} mutants)`);
  console.log(`with the tests beside them (${tests.length} files), estimated ${cost(chosen)} s.`);
  const { status, tested } = mutationRun(mutate, tests);
  if (status !== 0 || tested > 0) process.exit(status);
  console.log('No mutant of this window compiled, so no test was judged: the next window runs.');
  skip = (skip ?? 0) + (count ?? 0);
}
console.error('Three windows in a row made no mutant that compiles.');
process.exit(1);
