/**
 * The daemon's CPU per calendar-query REPORT whose body it has not seen since the last write,
 * without Radicale: a quick measure to repeat while changing the query path, and its profile.
 *
 *   npm run build && node dist/bench/caldavFresh.js [--requests=400] [--concurrency=8] [--profile=DIR]
 *     [--cases=day,day-expand,month,month-expand] [--repeat]
 *
 * The daemon runs in its own process on a fresh store with the same 40 series as the CalDAV case
 * (bench/caldav.ts), PUT as a client would. For each of its four REPORTs (a day and a month, a
 * time-range alone and with expand) it sends `requests` of them, `concurrency` at a time, each
 * with a window moved by a quarter of an hour more than the last (up to a day later), so no body
 * and no time range comes twice in a row; the daemon's CPU time (/proc/<pid>/stat) over them
 * divided by their number is the CPU per request. With --repeat every request sends the same
 * body (what the daemon answers from the answer it keeps until the next write), for comparison.
 * With --profile the daemon writes a V8 CPU
 * profile into DIR (node --cpu-prof) for the whole run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Child, daemonEnv } from './child.js';
import { createFamilies } from './seed.js';
import { queryBody, seriesIcs, shiftedBody, WINDOWS } from './caldav.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) =>
  argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const REQUESTS = Number(option('requests', '400'));
const CONCURRENCY = Number(option('concurrency', '8'));
const PROFILE = option('profile', '');
const REPEAT = argv.includes('--repeat');
const CASES = new Set(option('cases', 'day,day-expand,month,month-expand').split(','));

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'household-bench-caldav-fresh-'));
let daemon: Child | undefined;
try {
  const [fam] = await createFamilies(dataDir, ['bench-dav']);
  daemon = await Child.start(join(here, 'daemon.js'), {
    execArgv: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [],
    env: daemonEnv(dataDir),
  });
  const auth = `Basic ${Buffer.from(`${fam.slug}:${fam.apiKey}`).toString('base64')}`;
  const calendar = `${daemon.url}/dav/${fam.slug}/calendar/`;
  for (let i = 0; i < 40; i++) {
    const e = seriesIcs(i);
    const r = await fetch(calendar + e.name, {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': 'text/calendar; charset=utf-8' },
      body: e.ics,
    });
    if (r.status !== 201) throw new Error(`PUT ${e.name} answered ${r.status}`);
  }
  let asked = 0;
  const ask = async (body: string) => {
    const r = await fetch(calendar, {
      method: 'REPORT',
      headers: { authorization: auth, depth: '1', 'content-type': 'application/xml' },
      body,
    });
    const text = await r.text();
    if (r.status !== 207) throw new Error(`REPORT answered ${r.status}: ${text.slice(0, 300)}`);
    return text.length;
  };
  for (const w of WINDOWS) {
    for (const expand of [false, true]) {
      if (!CASES.has(`${w.key}${expand ? '-expand' : ''}`)) continue;
      const base = queryBody(w, expand);
      let bytes = 0;
      const run = async (n: number) => {
        let next = 0;
        const worker = async () => {
          while (next < n) {
            next++;
            const size = await ask(REPEAT ? base : shiftedBody(base, ++asked));
            bytes += size;
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      };
      await run(Math.min(200, REQUESTS));
      bytes = 0;
      const cpu0 = daemon.cpuSeconds();
      const t0 = performance.now();
      await run(REQUESTS);
      const cpu = daemon.cpuSeconds() - cpu0;
      const wall = (performance.now() - t0) / 1000;
      console.log(
        `${w.label}, ${expand ? 'expand' : 'time-range alone'}: ${((1e6 * cpu) / REQUESTS).toFixed(0)} µs CPU/req, ${(REQUESTS / wall).toFixed(0)} req/s, ${(bytes / REQUESTS).toFixed(0)} B/answer`,
      );
    }
  }
} finally {
  await daemon?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
