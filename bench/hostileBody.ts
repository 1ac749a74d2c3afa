/**
 * What one hostile request body costs the daemon: a 391 KiB `repeatDays` array of 100,000
 * strings posted to the calendar, and how long `/healthz` waits while four such requests
 * arrive at once; then a 1 MiB body inside every shape cap that still holds 500,000 wrong
 * values (500 select fields of 1,000 options that are not strings). The daemon runs in its
 * own process (bench/daemon.ts) so its CPU time is read from /proc apart from this client's.
 *
 *   npm run build && node dist/bench/hostileBody.js [--rounds=10]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Child } from './child.js';
import { createFamilies } from './seed.js';

const here = dirname(fileURLToPath(import.meta.url));
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.split('=')[1] ?? 10);

const dataDir = mkdtempSync(join(tmpdir(), 'household-hostile-'));
let daemon: Child | undefined;
try {
  const [family] = await createFamilies(dataDir, ['bench']);
  daemon = await Child.start(join(here, 'daemon.js'), {
    env: {
      BENCH_DAEMON_OVERRIDES: JSON.stringify({
        server: { host: '127.0.0.1', port: 0, publicUrl: 'http://127.0.0.1' },
        storage: { dataDir },
        log: { level: 'warn' },
        families: { bootstrapSlug: null },
        rateLimit: { perMinute: 100_000_000 },
      }),
    },
  });
  const base = `${daemon.url}/api/v1/families/bench`;
  const cases = [
    {
      name: 'POST /calendar/events, repeatDays of 100,000 strings',
      path: '/calendar/events',
      body: JSON.stringify({
        title: 'Hostile',
        date: '2026-12-01',
        repeatFrequency: 'weekly',
        repeatDays: Array.from({ length: 100_000 }, () => 'x'),
      }),
    },
    {
      name: 'POST /trackers, 500 fields x 1,000 bad options',
      path: '/trackers',
      body: JSON.stringify({
        name: 'Hostile',
        fields: Array.from({ length: 500 }, (_, i) => ({
          key: `f${i}`,
          label: 'F',
          type: 'select',
          options: Array(1000).fill(1),
        })),
      }),
    },
  ];
  for (const c of cases) {
    const post = () =>
      fetch(base + c.path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': family.apiKey },
        body: c.body,
      }).then(async (r) => ({ status: r.status, bytes: (await r.arrayBuffer()).byteLength }));
    await post(); // warm up
    const cpu0 = daemon.cpuSeconds();
    const t0 = performance.now();
    let answer = { status: 0, bytes: 0 };
    for (let i = 0; i < rounds; i++) answer = await post();
    const wall = (performance.now() - t0) / rounds;
    const cpu = ((daemon.cpuSeconds() - cpu0) * 1000) / rounds;

    const h0 = performance.now();
    const four = Array.from({ length: 4 }, () => post());
    const health = await fetch(`${daemon.url}/healthz`).then(() => performance.now() - h0);
    await Promise.all(four);

    process.stdout.write(
      `${c.name}: body ${(c.body.length / 1024).toFixed(0)} KiB; answer ${answer.status}, ${answer.bytes} bytes\n`,
    );
    process.stdout.write(
      `  per request: ${cpu.toFixed(1)} ms daemon CPU, ${wall.toFixed(1)} ms wall (mean of ${rounds})\n`,
    );
    process.stdout.write(`  GET /healthz behind four at once: ${health.toFixed(0)} ms\n`);
  }
} finally {
  await daemon?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
