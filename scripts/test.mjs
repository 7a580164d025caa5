// Runs every suite of `npm test` (or, with --check, the inner loop of `npm run check`), in steps:
// the steps of one stage run side by side, the stages one after another, and the run stops at the
// first stage that fails. Each step's time is printed at the end, for docs/testing.md.
import { spawn } from 'node:child_process';

const check = [
  // tsc and ESLint each keep to one core: side by side they take the time of the longer
  [
    { name: 'typecheck', command: 'npm run typecheck' },
    { name: 'lint', command: 'npm run lint' },
  ],
  [{ name: 'unit and component', command: 'npx vitest run --project contract --project web' }],
];

const whole = [
  ...check,
  // the whole server suite on PostgreSQL where one is configured, else on PGlite; the PGlite
  // run's own tests beside it (apps/server/vitest.config.ts)
  [{ name: 'server on PGlite', command: 'npx vitest run --project "server*"' }],
  [{ name: 'server on PostgreSQL', command: 'node scripts/test-pg.mjs' }],
  [{ name: 'end-to-end', command: 'npm run test:e2e' }],
  [{ name: 'two instances behind haproxy', command: 'node scripts/test-cluster-e2e.mjs' }],
];

/** Runs one step; side by side with others, its output is held and printed once it ends. */
function run(step, alone) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, {
      shell: true,
      stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    const held = [];
    child.stdout?.on('data', (chunk) => held.push(chunk));
    child.stderr?.on('data', (chunk) => held.push(chunk));
    child.on('close', (code, signal) => {
      if (!alone) process.stdout.write(`\n--- ${step.name} ---\n${Buffer.concat(held)}`);
      resolve({
        name: step.name,
        ok: code === 0,
        seconds: (performance.now() - started) / 1000,
        code: code ?? signal,
      });
    });
  });
}

const stages = process.argv.includes('--check') ? check : whole;
const results = [];
const started = performance.now();
for (const stage of stages) {
  const ended = await Promise.all(stage.map((step) => run(step, stage.length === 1)));
  results.push(...ended);
  if (ended.some((result) => !result.ok)) break;
}

const total = (performance.now() - started) / 1000;
console.log('\nstep times:');
for (const { name, ok, seconds, code } of results) {
  console.log(
    `  ${name.padEnd(30)} ${seconds.toFixed(0).padStart(5)} s${ok ? '' : `  FAILED (${code})`}`,
  );
}
console.log(`  ${'all'.padEnd(30)} ${total.toFixed(0).padStart(5)} s`);
process.exit(results.every((result) => result.ok) && results.length > 0 ? 0 : 1);
