/**
 * `npm run bench -- --against <git ref>`: this tree and another commit side by side, in one run
 * (docs/performance.md, "Before a change to the write path").
 *
 *   npm run bench -- --against v0.1.0                   list, query, post and spread
 *   npm run bench -- --against main --cases=post,spread --seconds=4 --rounds=3
 *
 * 1. The other commit is checked out into a temporary git worktree (sharing this tree's
 *    node_modules) and built with its own `npm run build`.
 * 2. Each tree seeds a fresh LMDB folder with its own code (`dist/bench/seed.js`: the same
 *    families, keys and 5,000 chores) and runs its own daemon (`dist/bench/daemon.js`); the
 *    bare-Koa floor (this tree's) knows both trees' keys.
 * 3. Each case runs interleaved — this, that, floor, this, that, floor … — so a machine whose
 *    speed drifts during the run moves all three alike, and each round reads the servers' own
 *    CPU counters: CPU per request is the figure to compare (throughput moves with whatever else
 *    the machine does).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Child, daemonEnv } from './child.js';
import { runRound, type LoadSpec, type Round } from './load.js';
import { QUERY, type BenchFamily } from './seed.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const log = (s: string) => process.stdout.write(`${s}\n`);

interface Options {
  ref: string;
  seconds: number;
  rounds: number;
  connections: number;
  cases: Set<string>;
  keep: boolean;
}

/** One tree under test: its daemon and the families its own code seeded. */
interface Side {
  label: string;
  child: Child;
  main: BenchFamily;
  spread: BenchFamily[];
  dataDir: string;
}

interface SeedModule {
  createFamilies(dataDir: string, slugs: string[]): Promise<BenchFamily[]>;
  postChores(baseUrl: string, family: BenchFamily, count: number): Promise<void>;
  chore(i: number): unknown;
}

const SPREAD = 50;
const ENTRIES = 5_000;

function run(cmd: string, args: string[], cwd: string, timeoutMs: number): void {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit', timeout: timeoutMs });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} in ${cwd} failed (${r.status})`);
}

/** The other commit, built in a worktree of its own; its folder. */
function buildOther(ref: string): string {
  const sha = spawnSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], {
    cwd: root,
    encoding: 'utf8',
  });
  if (sha.status !== 0) throw new Error(`${ref} names no commit`);
  const dir = mkdtempSync(join(tmpdir(), `household-against-${sha.stdout.trim().slice(0, 10)}-`));
  rmSync(dir, { recursive: true });
  run('git', ['worktree', 'add', '--detach', dir, sha.stdout.trim()], root, 60_000);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  log(`building ${ref} (${sha.stdout.trim().slice(0, 10)}) in ${dir}`);
  run('npm', ['run', 'build', '--silent'], dir, 600_000);
  if (!existsSync(join(dir, 'dist/bench/daemon.js')))
    throw new Error(`${ref} has no bench/daemon.ts to run`);
  return dir;
}

async function startSide(label: string, tree: string): Promise<Side> {
  const seed = (await import(pathToFileURL(join(tree, 'dist/bench/seed.js')).href)) as SeedModule;
  const dataDir = mkdtempSync(join(tmpdir(), `household-against-data-`));
  const slugs = ['bench', ...Array.from({ length: SPREAD }, (_, i) => `spread-${i}`)];
  const families = await seed.createFamilies(dataDir, slugs);
  const child = await Child.start(join(tree, 'dist/bench/daemon.js'), {
    env: daemonEnv(dataDir),
  });
  await seed.postChores(child.url, families[0], ENTRIES);
  log(`${label}: daemon ${child.url} (pid ${child.pid}), ${ENTRIES} chores seeded`);
  return { label, child, main: families[0], spread: families.slice(1), dataDir };
}

const entries = (slug: string, query = '') =>
  `/api/v1/families/${slug}/trackers/chores/entries${query ? `?${query}` : ''}`;

/** A case's load against one side (the floor is given this tree's families). */
function specs(side: Pick<Side, 'main' | 'spread'>, body: string): Record<string, LoadSpec> {
  const key = { 'x-api-key': side.main.apiKey };
  let turn = 0;
  return {
    list: { path: entries(side.main.slug, 'limit=20'), headers: key },
    query: { path: entries(side.main.slug, `query=${QUERY}&limit=20`), headers: key },
    post: { method: 'POST', path: entries(side.main.slug), headers: key, body },
    spread: {
      method: 'POST',
      path: entries(side.spread[0].slug),
      body,
      setupRequest: (req) => {
        const f = side.spread[turn++ % side.spread.length];
        req.path = entries(f.slug);
        req.headers['x-api-key'] = f.apiKey;
        return req;
      },
    },
  };
}

const NAMES: Record<string, string> = {
  list: 'GET entries, limit 20',
  query: 'GET entries with a query',
  post: 'POST entry, one family (durable)',
  spread: `POST entry, ${SPREAD} families round-robin (durable)`,
};

interface Tally {
  ok: number;
  seconds: number;
  cpu: number;
}

const add = (t: Tally, r: Round) => {
  t.ok += r.ok;
  t.seconds += r.seconds;
  t.cpu += r.serverCpu ?? 0;
};
const perReq = (t: Tally) => (1e6 * t.cpu) / Math.max(1, t.ok);
const rps = (t: Tally) => t.ok / Math.max(1e-9, t.seconds);

/** Teaches the floor both sides' keys and the answers it mirrors. */
async function teachFloor(floor: Child, sides: Side[]): Promise<void> {
  await floor.ask({
    type: 'keys',
    keys: sides.flatMap((s) =>
      [s.main, ...s.spread].map((f) => ({
        keyId: f.keyId,
        secretHash: f.secretHash,
        slug: f.slug,
      })),
    ),
  });
  const mine = sides[0];
  for (const qs of ['limit=20', `query=${QUERY}&limit=20`]) {
    const res = await fetch(mine.child.url + entries(mine.main.slug, qs), {
      headers: { 'x-api-key': mine.main.apiKey },
    });
    await floor.ask({ type: 'body', name: `entries:get?${qs}`, body: await res.json() });
  }
  const posted = await fetch(mine.child.url + entries(mine.main.slug), {
    method: 'POST',
    headers: { 'x-api-key': mine.main.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Mirror', data: {} }),
  });
  await floor.ask({ type: 'body', name: 'entries:post', body: await posted.json() });
}

async function runCases(o: Options, sides: Side[], floor: Child, body: string) {
  const rows: { key: string; tallies: Tally[] }[] = [];
  const targets = [...sides.map((s) => ({ label: s.label, child: s.child, spec: specs(s, body) }))];
  targets.push({ label: 'floor', child: floor, spec: specs(sides[0], body) });
  for (const key of ['list', 'query', 'post', 'spread'].filter((k) => o.cases.has(k))) {
    log(`\n== ${NAMES[key]}`);
    const tallies = targets.map(() => ({ ok: 0, seconds: 0, cpu: 0 }));
    const round = (t: (typeof targets)[number], seconds: number) =>
      runRound(t.child.url, t.spec[key], {
        connections: o.connections,
        seconds,
        serverCpu: () => t.child.cpuSeconds(),
      });
    for (const t of targets) await round(t, 1);
    for (let i = 1; i <= o.rounds; i++)
      for (const [n, t] of targets.entries()) {
        await sleep(300);
        const r = await round(t, o.seconds);
        add(tallies[n], r);
        const bad = r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : '';
        log(
          `   ${t.label.padEnd(8)} round ${i}: ${Math.round(r.ok / r.seconds)} req/s, ${((1e6 * (r.serverCpu ?? 0)) / Math.max(1, r.ok)).toFixed(0)} µs CPU/req${bad}`,
        );
      }
    rows.push({ key, tallies });
  }
  return rows;
}

function table(o: Options, rows: { key: string; tallies: Tally[] }[]): string {
  const head = `| case | this: req/s, µs CPU/req | ${o.ref}: req/s, µs CPU/req | floor: req/s, µs CPU/req | CPU ÷ floor: this / ${o.ref} | this ÷ ${o.ref} CPU |`;
  const lines = [head, '|---|---|---|---|---|---|'];
  for (const { key, tallies } of rows) {
    const [a, b, f] = tallies;
    const cell = (t: Tally) => `${Math.round(rps(t))}, ${perReq(t).toFixed(0)}`;
    lines.push(
      `| ${NAMES[key]} | ${cell(a)} | ${cell(b)} | ${cell(f)} | ${(perReq(a) / perReq(f)).toFixed(2)} / ${(perReq(b) / perReq(f)).toFixed(2)} | ${(perReq(a) / perReq(b)).toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}

export async function runAgainst(o: Options): Promise<void> {
  const other = buildOther(o.ref);
  const sides: Side[] = [];
  let floor: Child | undefined;
  try {
    sides.push(await startSide('this', root));
    sides.push(await startSide(o.ref, other));
    floor = await Child.start(join(here, 'floor.js'), {});
    await teachFloor(floor, sides);
    const seed = (await import(pathToFileURL(join(here, 'seed.js')).href)) as SeedModule;
    const rows = await runCases(o, sides, floor, JSON.stringify(seed.chore(ENTRIES + 1)));
    log(`\n${table(o, rows)}\n`);
  } finally {
    for (const s of sides) await s.child.close().catch(() => undefined);
    await floor?.close().catch(() => undefined);
    for (const s of sides) rmSync(s.dataDir, { recursive: true, force: true });
    if (!o.keep) run('git', ['worktree', 'remove', '--force', other], root, 60_000);
    else log(`kept ${other} (git worktree remove --force ${other})`);
  }
}

/** The options of `--against` from the command line. */
export function againstOptions(argv: string[]): Options | null {
  const option = (name: string, fallback: string) =>
    argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
  const at = argv.findIndex((a) => a === '--against' || a.startsWith('--against='));
  if (at < 0) return null;
  const ref = argv[at].includes('=') ? argv[at].slice('--against='.length) : argv[at + 1];
  if (!ref) throw new Error('--against needs a git ref');
  return {
    ref,
    seconds: Number(option('seconds', '4')),
    rounds: Number(option('rounds', '2')),
    connections: Number(option('connections', '64')),
    cases: new Set(option('cases', 'list,query,post,spread').split(',')),
    keep: argv.includes('--keep-against'),
  };
}
