// Runs the whole suite (compiled to dist/ by `npm run build`) with mocha and ends with the
// line CI reads: "N passed, N failed" (plus ", N skipped" when tests were skipped).
//
//   node test/run.mjs [FILTER] [--lint] [--jobs=N]
//
// FILTER runs the files whose path contains it. --lint (what `npm test` passes) runs the lint
// (`npm run lint`: eslint, prettier, jscpd) beside the suite, as one more check in the count:
// it keeps one core busy while mocha's files mostly wait on daemons, browsers and clocks, and
// its output is printed before the count when it fails. HOUSEHOLD_TEST_TIMINGS=N prints the N
// slowest files before the count. --jobs=N runs the files in N worker processes at once (mocha's
// parallel mode): most files spend their time waiting on daemons, browsers and clocks.
import Mocha from 'mocha';
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) find(p, out);
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

/** `npm run lint` in the background: resolves with its exit code, output and duration. */
function startLint() {
  const t0 = performance.now();
  const child = spawn('npm', ['run', '--silent', 'lint'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  return new Promise((resolve) => {
    child.once('error', (err) => resolve({ code: 1, out: String(err), s: 0 }));
    child.once('close', (code) => resolve({ code, out, s: (performance.now() - t0) / 1000 }));
  });
}

const args = process.argv.slice(2);
const filter = args.find((a) => !a.startsWith('--'));
const lint = args.includes('--lint') ? startLint() : null;
const jobs = Number(args.find((a) => a.startsWith('--jobs='))?.slice('--jobs='.length) ?? 1);
const started = performance.now();
const files = find('dist/test')
  .filter((f) => !filter || f.includes(filter))
  .sort();
const mocha = new Mocha({
  forbidOnly: true,
  timeout: 30_000,
  reporter: process.env.MOCHA_REPORTER ?? 'spec',
  ...(jobs > 1 ? { parallel: true, jobs } : {}),
});
for (const f of files) mocha.addFile(f);
// In parallel mode each worker loads its files; the main process only gathers their results.
if (jobs <= 1) await mocha.loadFilesAsync();
const runner = mocha.run();
// Where the time goes, per file.
const timings = new Map();
runner.on('suite', (suite) => {
  if (jobs <= 1 && suite.file && suite.parent?.root) timings.set(suite, performance.now());
});
// In parallel mode the suites' events are replayed when a file ends: the tests' own durations
// (hooks not counted) are the figure then.
runner.on('test end', (test) => {
  if (jobs <= 1 || !test.file || typeof test.duration !== 'number') return;
  const file = test.file.replace(/^.*dist\/test\//, '');
  timings.set(file, (timings.get(file) ?? 0) + test.duration);
});
runner.on('suite end', (suite) => {
  const at = timings.get(suite);
  if (at === undefined) return;
  timings.delete(suite);
  const file = suite.file.replace(/^.*dist\/test\//, '');
  timings.set(file, (timings.get(file) ?? 0) + performance.now() - at);
});

function slowestFiles(n) {
  if (!(n > 0)) return '';
  const files = [...timings].filter(([k]) => typeof k === 'string');
  files.sort((a, b) => b[1] - a[1]);
  return `\nslowest files:\n${files
    .slice(0, n)
    .map(([file, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`)
    .join('')}`;
}

runner.on('end', async () => {
  const s = runner.stats;
  let passes = s.passes;
  let failures = s.failures;
  let text = slowestFiles(Number(process.env.HOUSEHOLD_TEST_TIMINGS ?? 0));
  text += `\nmocha: ${((performance.now() - started) / 1000).toFixed(0)} s\n`;
  if (lint) {
    const l = await lint;
    if (l.code === 0) passes += 1;
    else failures += 1;
    text +=
      l.code === 0
        ? `lint: passed in ${l.s.toFixed(0)} s\n`
        : `\nlint failed (npm run lint, exit ${l.code}):\n${l.out}\n`;
  }
  const skipped = s.pending ? `, ${s.pending} skipped` : '';
  const code = failures > 0 || passes === 0 ? 1 : 0;
  // Exit once the line is out: a handle a failed test left open (a daemon whose `after` never
  // ran, a child process) must not keep CI waiting after the count is printed.
  process.stdout.write(`${text}\n${passes} passed, ${failures} failed${skipped}\n`, () =>
    process.exit(code),
  );
});
