// Runs the whole suite (compiled to dist/ by `npm run build`) with mocha and ends with the
// line CI reads: "N passed, N failed" (plus ", N skipped" when tests were skipped).
import Mocha from 'mocha';
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

const filter = process.argv[2];
const files = find('dist/test')
  .filter((f) => !filter || f.includes(filter))
  .sort();
const mocha = new Mocha({
  forbidOnly: true,
  timeout: 30_000,
  reporter: process.env.MOCHA_REPORTER ?? 'spec',
});
for (const f of files) mocha.addFile(f);
await mocha.loadFilesAsync();
const runner = mocha.run();
// Where the time goes, per file (HOUSEHOLD_TEST_TIMINGS=N prints the N slowest before the count).
const timings = new Map();
runner.on('suite', (suite) => {
  if (suite.file && suite.parent?.root) timings.set(suite, performance.now());
});
runner.on('suite end', (suite) => {
  const at = timings.get(suite);
  if (at === undefined) return;
  timings.delete(suite);
  const file = suite.file.replace(/^.*dist\/test\//, '');
  timings.set(file, (timings.get(file) ?? 0) + performance.now() - at);
});
runner.on('end', () => {
  const slowest = Number(process.env.HOUSEHOLD_TEST_TIMINGS ?? 0);
  if (slowest > 0) {
    const files = [...timings].filter(([k]) => typeof k === 'string');
    files.sort((a, b) => b[1] - a[1]);
    process.stdout.write('\nslowest files:\n');
    for (const [file, ms] of files.slice(0, slowest))
      process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
  }
  const s = runner.stats;
  const skipped = s.pending ? `, ${s.pending} skipped` : '';
  const code = s.failures > 0 || s.passes === 0 ? 1 : 0;
  // Exit once the line is out: a handle a failed test left open (a daemon whose `after` never
  // ran, a child process) must not keep CI waiting after the count is printed.
  process.stdout.write(`\n${s.passes} passed, ${s.failures} failed${skipped}\n`, () =>
    process.exit(code),
  );
});
