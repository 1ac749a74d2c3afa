/**
 * `npm run bench:writes`: where one durable write goes (docs/performance.md, "Where a durable
 * write goes"). The bench's `post` case (one family) and `spread` case (fifty families
 * round-robin), measured from the daemon process's own counters during the measured rounds:
 *
 * - user and system CPU per write, the main thread apart from the other threads (by name),
 *   from /proc/<pid>/stat and /proc/<pid>/task/<tid>/stat;
 * - bytes written per write and per group commit: /proc/<pid>/io (write_bytes: what went to
 *   the block layer; the threads' wchar and write calls: what each handed to write());
 * - group commits per second and writes (family batches) per commit, from a listener on the
 *   store (bench/daemon.ts, `commits`), and LMDB's own view (lmdb-js getStats: its last
 *   transaction id and last page number, so transactions and file growth in pages);
 * - the same CPU figures for the bare-Koa floor (bench/floor.ts), for the ratio.
 *
 *   npm run bench:writes -- --seconds=5 --connections=64 --rounds=2 --cases=post,spread
 *   (--no-doc: do not touch docs/performance.md; --tree=<folder>: the daemon and the seeding of
 *   another built checkout, e.g. an older commit's worktree, to compare; a daemon that does not
 *   answer `commits` leaves the commit and LMDB rows empty; implies --no-doc)
 *
 * Each case: a 1 s warm-up of each server, then rounds A B A B (daemon, floor, …).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Child, daemonEnv } from './child.js';
import { runRound, type LoadSpec } from './load.js';
import * as ownSeed from './seed.js';
import type { BenchFamily } from './seed.js';
import { machine, updateDoc } from './report.js';
import { addUsage, sampleProcess, usageBetween, type ProcUsage } from './threads.js';
import {
  breakdownMarkdown,
  WRITES_MARKERS,
  type CaseBreakdown,
  type CommitCounters,
} from './writeReport.js';

const here = dirname(fileURLToPath(import.meta.url));
const DOC = join(resolve(here, '../..'), 'docs/performance.md');

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) =>
  argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const SECONDS = Number(option('seconds', '5'));
const CONNECTIONS = Number(option('connections', '64'));
const ROUNDS = Number(option('rounds', '2'));
const ENTRIES = Number(option('entries', '5000'));
const CASES = new Set(option('cases', 'post,spread').split(','));
const TREE = option('tree', '');
const WRITE_DOC = !argv.includes('--no-doc') && !TREE;
const SPREAD = 50;
const log = (s: string) => process.stdout.write(`${s}\n`);

const entriesPath = (slug: string) => `/api/v1/families/${slug}/trackers/chores/entries`;

/** The daemon's commit counters; NaN and null where its daemon.ts does not count (--tree). */
async function commitCounters(daemon: Child): Promise<CommitCounters> {
  const c = await daemon.ask<Partial<CommitCounters>>({ type: 'commits' });
  return {
    count: c.count ?? NaN,
    batches: c.batches ?? NaN,
    ms: c.ms ?? NaN,
    flushMs: c.flushMs ?? NaN,
    lmdb: c.lmdb ?? null,
  };
}

/** One round against `child`: its process's counters (and the daemon's commits) around it. */
async function measure(child: Child, spec: LoadSpec, seconds: number, withCommits: boolean) {
  const c0 = withCommits ? await commitCounters(child) : undefined;
  const s0 = sampleProcess(child.pid);
  const r = await runRound(child.url, spec, { connections: CONNECTIONS, seconds });
  const s1 = sampleProcess(child.pid);
  const c1 = withCommits ? await commitCounters(child) : undefined;
  const bad = r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : '';
  return { ok: r.ok, seconds: r.seconds, usage: usageBetween(s0, s1), c0, c1, bad };
}

function commitDelta(a: CommitCounters, b: CommitCounters): CommitCounters {
  return {
    count: b.count - a.count,
    batches: b.batches - a.batches,
    ms: b.ms - a.ms,
    flushMs: b.flushMs - a.flushMs,
    lmdb:
      a.lmdb && b.lmdb
        ? {
            ...b.lmdb,
            lastTxnId: b.lmdb.lastTxnId - a.lmdb.lastTxnId,
            lastPageNumber: b.lmdb.lastPageNumber - a.lmdb.lastPageNumber,
            entriesAdded: b.lmdb.entryCount - a.lmdb.entryCount,
          }
        : null,
  };
}

function addCommits(a: CommitCounters | undefined, b: CommitCounters): CommitCounters {
  if (!a) return b;
  return {
    count: a.count + b.count,
    batches: a.batches + b.batches,
    ms: a.ms + b.ms,
    flushMs: a.flushMs + b.flushMs,
    lmdb:
      a.lmdb && b.lmdb
        ? {
            ...b.lmdb,
            lastTxnId: a.lmdb.lastTxnId + b.lmdb.lastTxnId,
            lastPageNumber: a.lmdb.lastPageNumber + b.lmdb.lastPageNumber,
            entriesAdded: (a.lmdb.entriesAdded ?? 0) + (b.lmdb.entriesAdded ?? 0),
          }
        : null,
  };
}

const cpuText = (u: ProcUsage, n: number) =>
  `${((1e6 * (u.user + u.system)) / n).toFixed(0)} µs CPU/req (user ${((1e6 * u.user) / n).toFixed(0)}, system ${((1e6 * u.system) / n).toFixed(0)}; main thread ${((1e6 * (u.main.user + u.main.system)) / n).toFixed(0)})`;

/** Warm-up, then ROUNDS × (daemon, floor); the sums of the measured rounds. */
async function runCase(
  name: string,
  spec: LoadSpec,
  daemon: Child,
  floor: Child,
): Promise<CaseBreakdown> {
  log(`\n== ${name}`);
  await runRound(daemon.url, spec, { connections: CONNECTIONS, seconds: 1 });
  await runRound(floor.url, spec, { connections: CONNECTIONS, seconds: 1 });
  const out: Partial<CaseBreakdown> & { name: string } = {
    name,
    writes: 0,
    seconds: 0,
    floorRequests: 0,
    floorSeconds: 0,
  };
  for (let i = 1; i <= ROUNDS; i++) {
    await sleep(300);
    const d = await measure(daemon, spec, SECONDS, true);
    const commits = commitDelta(d.c0!, d.c1!);
    out.writes! += d.ok;
    out.seconds! += d.seconds;
    out.daemon = out.daemon ? addUsage(out.daemon, d.usage) : d.usage;
    out.commits = addCommits(out.commits, commits);
    log(
      `   daemon round ${i}: ${Math.round(d.ok / d.seconds)} writes/s, ${cpuText(d.usage, d.ok)}, ${commits.count} commits, ${(commits.batches / commits.count).toFixed(1)} writes/commit${d.bad}`,
    );
    await sleep(300);
    const f = await measure(floor, spec, SECONDS, false);
    out.floorRequests! += f.ok;
    out.floorSeconds! += f.seconds;
    out.floor = out.floor ? addUsage(out.floor, f.usage) : f.usage;
    log(
      `   floor  round ${i}: ${Math.round(f.ok / f.seconds)} req/s, ${cpuText(f.usage, f.ok)}${f.bad}`,
    );
  }
  return out as CaseBreakdown;
}

/** The families, the daemon (5,000 chores in the first family, as the bench), the floor. */
async function setUp(dataDir: string) {
  // Another checkout seeds its own store (its schema) and runs its own daemon.
  const seed = TREE
    ? ((await import(pathToFileURL(join(TREE, 'dist/bench/seed.js')).href)) as typeof ownSeed)
    : ownSeed;
  const daemonScript = TREE ? join(TREE, 'dist/bench/daemon.js') : join(here, 'daemon.js');
  const spreadSlugs = Array.from(
    { length: SPREAD },
    (_, i) => `spread-${String(i).padStart(2, '0')}`,
  );
  const families = await seed.createFamilies(dataDir, ['bench', ...spreadSlugs]);
  const daemon = await Child.start(daemonScript, { env: daemonEnv(dataDir) });
  const floor = await Child.start(join(here, 'floor.js'), {});
  await floor.ask({
    type: 'keys',
    keys: families.map((f) => ({ keyId: f.keyId, secretHash: f.secretHash, slug: f.slug })),
  });
  log(`daemon pid ${daemon.pid}, floor pid ${floor.pid}, data in ${dataDir}`);
  await seed.postChores(daemon.url, families[0], ENTRIES);
  const body = JSON.stringify(ownSeed.chore(ENTRIES + 1));
  const res = await fetch(daemon.url + entriesPath(families[0].slug), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': families[0].apiKey },
    body,
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST entry answered ${res.status}: ${text}`);
  await floor.ask({ type: 'body', name: 'entries:post', body: JSON.parse(text) as unknown });
  return { daemon, floor, main: families[0], spread: families.slice(1), body };
}

function specs(main: BenchFamily, spread: BenchFamily[], body: string) {
  let turn = 0;
  const key = { 'x-api-key': main.apiKey };
  return [
    {
      key: 'post',
      name: 'POST entry, one family (durable)',
      spec: { method: 'POST', path: entriesPath(main.slug), headers: key, body } as LoadSpec,
    },
    {
      key: 'spread',
      name: `POST entry, ${SPREAD} families round-robin (durable)`,
      spec: {
        method: 'POST',
        path: entriesPath(spread[0].slug),
        body,
        setupRequest: (req) => {
          const f = spread[turn++ % spread.length];
          req.path = entriesPath(f.slug);
          req.headers['x-api-key'] = f.apiKey;
          return req;
        },
      } as LoadSpec,
    },
  ];
}

const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const command = `npm run bench:writes${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
if (TREE) log(`the daemon of ${TREE}`);
log(`Where a durable write goes, ${date}`);
const dataDir = mkdtempSync(join(tmpdir(), 'household-writes-'));
let children: Child[] = [];
try {
  const { daemon, floor, main, spread, body } = await setUp(dataDir);
  children = [daemon, floor];
  await commitCounters(daemon); // starts counting
  const results: CaseBreakdown[] = [];
  for (const c of specs(main, spread, body))
    if (CASES.has(c.key)) results.push(await runCase(c.name, c.spec, daemon, floor));
  const block = breakdownMarkdown(results, {
    command,
    date,
    machine: machine(),
    seconds: SECONDS,
    rounds: ROUNDS,
    connections: CONNECTIONS,
    entries: ENTRIES,
  });
  log(`\n${block}\n`);
  if (WRITE_DOC) {
    updateDoc(DOC, WRITES_MARKERS, block);
    log(`wrote ${DOC}`);
  }
} finally {
  for (const c of children) await c.close();
  rmSync(dataDir, { recursive: true, force: true });
}
