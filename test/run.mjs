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
runner.on('end', () => {
  const s = runner.stats;
  const skipped = s.pending ? `, ${s.pending} skipped` : '';
  const code = s.failures > 0 || s.passes === 0 ? 1 : 0;
  // Exit once the line is out: a handle a failed test left open (a daemon whose `after` never
  // ran, a child process) must not keep CI waiting after the count is printed.
  process.stdout.write(`\n${s.passes} passed, ${s.failures} failed${skipped}\n`, () =>
    process.exit(code),
  );
});
