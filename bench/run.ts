/**
 * `npm run bench`: the daemon against a bare-Koa floor (docs/performance.md).
 *
 *   npm run bench                       throughput and latency cases (about 2.5 minutes)
 *   npm run bench -- --memory           … then the memory case (1,000 families × 2,000 entries, about 2.5 minutes more)
 *   npm run bench -- --memory-only      only the memory case
 *   npm run bench -- --cases=webhooks   only the webhooks case (bench/webhooks.ts, about a minute)
 *   npm run bench -- --cases=stream     only the live change stream case (bench/stream.ts, about half a minute)
 *   npm run bench -- --cases=caldav     only the CalDAV case against Radicale (bench/caldav.ts, about
 *                                       8 minutes; never in the default run: it needs `radicale`;
 *                                       --caldav-cases=repeat,fresh,put picks some of its cases)
 *   npm run bench -- --feeds            … then the external-calendar case (20,000-event feed; about a minute)
 *   npm run bench -- --feeds-only       only the external-calendar case
 *   npm run bench -- --against <ref>    this tree beside another commit, interleaved, CPU per
 *                                       request side by side (bench/against.ts)
 *
 * Options: --seconds=5 (per round) --connections=64 --paced-rate=2000
 *          --cases=list,paced,query,calendar,context,post,spread,mixed,webhooks,stream (a subset runs only those)
 *          --paced-writes=1000 (the webhooks and stream cases' fixed write rate)
 *          --profile (CPU profiles of the daemon and the floor, summarized at the end; they slow both)
 *          --daemon-node-flags=--trace-gc (Node flags for the daemon process, comma-separated)
 *          --no-doc (do not touch docs/performance.md)
 *          memory case: --families=1000 --per-family=2000 --idle-minutes=0.5 --after-idle-seconds=20,60
 *
 * 1. Families and keys are created in a fresh LMDB folder before the daemon starts.
 * 2. The daemon (bench/daemon.ts: startDaemon, log level warn, rate limit out of the way) and
 *    the floor (bench/floor.ts) run as child processes on 127.0.0.1.
 * 3. 5,000 chores entries are posted through the API; the daemon's replies are captured and
 *    the floor answers bodies of the same size.
 * 4. Each case runs A B A B (daemon, floor, daemon, floor) with autocannon in this process.
 * 5. The table is printed and written into docs/performance.md between markers (the context
 *    cases into their own block, so `--cases=context` leaves the other figures as they are).
 */
import { mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Child, daemonEnv } from './child.js';
import { againstOptions, runAgainst } from './against.js';
import { runRound, summarize, type LoadSpec, type Round } from './load.js';
import { runPaced } from './paced.js';
import { chore, createFamilies, postChores, QUERY, type BenchFamily } from './seed.js';
import { CALENDAR_WINDOWS, seedCalendar } from './calendar.js';
import {
  CONTEXT_ENTRIES,
  CONTEXT_EVENTS,
  CONTEXT_QUERIES,
  contextColdTimings,
  contextPath,
  seedContext,
} from './context.js';
import { runMemoryCase } from './memory.js';
import { summarizeProfile } from './profile.js';
import { runWebhooksCase, webhooksMarkdown, WEBHOOKS_MARKERS } from './webhooks.js';
import { FEEDS_MARKERS, feedsMarkdown, runFeedsCase } from './feeds.js';
import { CALDAV_MARKERS, caldavMarkdown, runCaldavCase } from './caldav.js';
import { runStreamCase, streamMarkdown, STREAM_MARKERS } from './stream.js';
import {
  consoleTable,
  CONTEXT_MARKERS,
  machine,
  memoryMarkdown,
  MEMORY_MARKERS,
  throughputMarkdown,
  THROUGHPUT_MARKERS,
  updateDoc,
  type CaseResult,
  type Target,
} from './report.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const DAEMON = join(here, 'daemon.js');
const FLOOR = join(here, 'floor.js');
const DOC = join(root, 'docs/performance.md');

// ---- options ---------------------------------------------------------------------------------

const argv = process.argv.slice(2);
// `--against <ref>`: this tree beside another commit, interleaved (bench/against.ts).
const AGAINST = againstOptions(argv);
if (AGAINST) {
  await runAgainst(AGAINST);
  process.exit(0);
}
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string, fallback: string) =>
  argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const SECONDS = Number(option('seconds', '5'));
const CONNECTIONS = Number(option('connections', '64'));
const CASES = new Set(
  option('cases', 'list,paced,query,calendar,context,post,spread,mixed,webhooks,stream').split(','),
);
const THROUGHPUT_CASES = [
  'list',
  'paced',
  'query',
  'calendar',
  'context',
  'post',
  'spread',
  'mixed',
];
const PACED_WRITES = Number(option('paced-writes', '1000'));
const PACED_RATE = Number(option('paced-rate', '2000'));
const MEMORY_ONLY = flag('memory-only');
const MEMORY = flag('memory') || MEMORY_ONLY;
const FEEDS_ONLY = flag('feeds-only');
const FEEDS = flag('feeds') || FEEDS_ONLY;
const PROFILE = flag('profile');
/** Extra Node flags for the daemon process, comma-separated (e.g. --daemon-node-flags=--trace-gc). */
const DAEMON_FLAGS = option('daemon-node-flags', '').split(',').filter(Boolean);
const WRITE_DOC = !flag('no-doc');
const SPREAD_FAMILIES = 50;
const ENTRIES = 5_000;
const command = `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`;

const log = (s: string) => process.stdout.write(`${s}\n`);

// ---- the throughput cases --------------------------------------------------------------------

interface CaseDef {
  key: string;
  /** The document block the case is reported in. */
  block?: 'context';
  name: string;
  target: Target;
  spec: LoadSpec;
  /** Open loop at this rate instead of autocannon's closed loop. */
  pacedRate?: number;
  /** Load that runs alongside each round (writes while reads are measured), on its own connections. */
  background?: { spec: LoadSpec; connections: number };
}

const READ_TARGET: Target = { minRatio: 0.7, maxP99: 5 };

function entriesPath(slug: string, query = ''): string {
  return `/api/v1/families/${slug}/trackers/chores/entries${query ? `?${query}` : ''}`;
}

async function fetchJson(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; text: string; body: unknown }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: res.status, text, body };
}

/** Runs one case: a short warm-up of each server, then A B A B. */
async function runCase(def: CaseDef, daemon: Child, floor: Child): Promise<CaseResult> {
  log(`\n== ${def.name}`);
  const measured = (child: Child, seconds: number) =>
    def.pacedRate
      ? runPaced(child.url, def.spec, {
          rate: def.pacedRate,
          seconds,
          connections: CONNECTIONS,
          serverCpu: () => child.cpuSeconds(),
        })
      : runRound(child.url, def.spec, {
          connections: CONNECTIONS - (def.background?.connections ?? 0),
          seconds,
          serverCpu: () => child.cpuSeconds(),
        });
  const round = async (child: Child, seconds: number) => {
    if (!def.background) return measured(child, seconds);
    const bg = runRound(child.url, def.background.spec, {
      connections: def.background.connections,
      seconds,
    });
    const [r, w] = await Promise.all([measured(child, seconds), bg]);
    log(
      `   (alongside: ${Math.round(w.ok / w.seconds).toLocaleString('en-US')} writes/s, ${w.non2xx} non-2xx)`,
    );
    return r;
  };
  await round(daemon, 1);
  await round(floor, 1);
  const rounds: { daemon: Round[]; floor: Round[] } = { daemon: [], floor: [] };
  for (let i = 1; i <= 2; i++) {
    for (const [label, child] of [
      ['daemon', daemon],
      ['floor', floor],
    ] as const) {
      await sleep(300);
      const r = await round(child, def.pacedRate ? Math.min(SECONDS, 3) : SECONDS);
      rounds[label].push(r);
      const bad =
        r.non2xx || r.errors
          ? ` (${r.non2xx} non-2xx ${JSON.stringify(r.statusCodes)}, ${r.errors} errors)`
          : '';
      // Anything well above 0 here means other work was competing for the two cores.
      const rest = Math.max(0, (r.machineCpu - r.loaderCpu - r.serverCpu!) / r.seconds);
      const cpu = `server ${(r.serverCpu! / r.seconds).toFixed(2)} cores, ${((1e6 * r.serverCpu!) / r.ok).toFixed(0)} µs CPU/req; load generator ${(r.loaderCpu / r.seconds).toFixed(2)}, rest of machine ${rest.toFixed(2)} cores`;
      log(
        `   ${label.padEnd(6)} round ${i}: ${Math.round(r.ok / r.seconds)
          .toLocaleString('en-US')
          .padStart(7)} req/s  (${cpu})${bad}`,
      );
    }
  }
  return {
    name: def.name,
    target: def.target,
    daemon: summarize(rounds.daemon),
    floor: summarize(rounds.floor),
    ...(def.pacedRate ? { pacedRate: def.pacedRate } : {}),
  };
}

async function throughput(): Promise<{
  cases: CaseResult[];
  notes: string[];
  contextCases: CaseResult[];
  contextNotes: string[];
  profile?: string;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'household-bench-'));
  const profileDir = PROFILE ? mkdtempSync(join(tmpdir(), 'household-bench-prof-')) : undefined;
  const notes: string[] = [];
  const contextNotes: string[] = [];
  let daemon: Child | undefined;
  let floor: Child | undefined;
  try {
    // 1. Families and keys before the daemon starts.
    const spreadSlugs = Array.from(
      { length: SPREAD_FAMILIES },
      (_, i) => `spread-${String(i).padStart(2, '0')}`,
    );
    const families = await createFamilies(dataDir, [
      'bench',
      'bench-cal',
      'bench-ctx',
      ...spreadSlugs,
    ]);
    const main = families[0];
    const cal = families[1];
    const ctx = families[2];
    const spread = families.slice(3);

    // 2. The daemon and the floor.
    daemon = await Child.start(DAEMON, {
      execArgv: [
        ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, 'daemon')}`] : []),
        ...DAEMON_FLAGS,
      ],
      env: daemonEnv(dataDir),
    });
    floor = await Child.start(FLOOR, {
      execArgv: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, 'floor')}`] : [],
    });
    await floor.ask({
      type: 'keys',
      keys: families.map((f) => ({ keyId: f.keyId, secretHash: f.secretHash, slug: f.slug })),
    });
    log(
      `daemon ${daemon.url} (pid ${daemon.pid}), floor ${floor.url} (pid ${floor.pid}), data in ${dataDir}`,
    );

    // 3. 5,000 chores through the API; the floor learns the daemon's replies.
    const t0 = Date.now();
    await postChores(daemon.url, main, ENTRIES);
    log(
      `seeded ${ENTRIES} chores entries in "${main.slug}" through POST …/entries/batch in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    const keyHeader = { 'x-api-key': main.apiKey };
    const sizes = new Map<string, { daemon: number; floor: number }>();
    const mirror = async (route: string, path: string, qs: string) => {
      const d = await fetchJson(daemon!.url + path, { headers: keyHeader });
      if (d.status !== 200)
        throw new Error(`GET ${path} answered ${d.status}: ${d.text.slice(0, 300)}`);
      await floor!.ask({ type: 'body', name: `${route}?${qs}`, body: d.body });
      const f = await fetchJson(floor!.url + path, { headers: keyHeader });
      sizes.set(path, { daemon: Buffer.byteLength(d.text), floor: Buffer.byteLength(f.text) });
      return d.body;
    };
    const listQs = 'limit=20';
    const queryQs = `query=${QUERY}&limit=20`;
    await mirror('entries:get', entriesPath(main.slug, listQs), listQs);
    const found = (await mirror('entries:get', entriesPath(main.slug, queryQs), queryQs)) as {
      entries: unknown[];
    };
    notes.push(
      `"${QUERY}" matches 1 title in 25 (${ENTRIES / 25} of ${ENTRIES}); the first page holds ${found.entries.length} entries, so the listing walks about ${found.entries.length * 25} entries per request.`,
    );
    const postBody = JSON.stringify(chore(ENTRIES + 1));
    const posted = await fetchJson(daemon.url + entriesPath(main.slug), {
      method: 'POST',
      headers: { ...keyHeader, 'content-type': 'application/json' },
      body: postBody,
    });
    if (posted.status !== 201)
      throw new Error(`POST entry answered ${posted.status}: ${posted.text.slice(0, 300)}`);
    await floor.ask({ type: 'body', name: 'entries:post', body: posted.body });

    // Calendar: runs when the daemon has the endpoints.
    let calendarSkipped: string | undefined;
    if (CASES.has('calendar')) {
      calendarSkipped = (await seedCalendar(daemon.url, cal)).skipped;
      if (calendarSkipped) log(`calendar cases skipped: ${calendarSkipped}`);
      else {
        for (const w of CALENDAR_WINDOWS) {
          const path = `/api/v1/families/${cal.slug}/calendar/events?${w.query}`;
          const d = await fetchJson(daemon.url + path, { headers: { 'x-api-key': cal.apiKey } });
          if (d.status !== 200) {
            calendarSkipped = `GET ${path} answered ${d.status}: ${d.text.slice(0, 300)}`;
            break;
          }
          await floor.ask({ type: 'body', name: `calendar:get?${w.query}`, body: d.body });
          const f = await fetchJson(floor.url + path, { headers: { 'x-api-key': cal.apiKey } });
          sizes.set(path, { daemon: Buffer.byteLength(d.text), floor: Buffer.byteLength(f.text) });
          const events = (d.body as { events?: unknown[] }).events?.length ?? 0;
          notes.push(`${w.name}: 200 repeating series; the reply holds ${events} occurrences.`);
        }
      }
    }

    // Context search (issue "context and lookups"): 10,000 entries and 500 events.
    if (CASES.has('context')) {
      const t1 = Date.now();
      await seedContext(daemon.url, ctx);
      log(
        `seeded ${CONTEXT_ENTRIES} chores and ${CONTEXT_EVENTS} events in "${ctx.slug}" in ${((Date.now() - t1) / 1000).toFixed(1)} s`,
      );
      const cold = await contextColdTimings(daemon.url, ctx);
      const sorted = [...cold.afterWriteMs].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      const base = [...cold.baselineMs].sort((a, b) => a - b);
      contextNotes.push(
        `Family "${ctx.slug}": ${CONTEXT_ENTRIES.toLocaleString('en-US')} chores entries (posted through the batch endpoint) and ${CONTEXT_EVENTS} events (one-offs over the next 60 days, weekly series since 2022, monthly series since 2025).`,
      );
      contextNotes.push(
        `The first search of the family, which builds its index: ${cold.firstMs.toFixed(0)} ms (one request, from the client).`,
      );
      contextNotes.push(
        `A search right after a write (the index follows the write; the answer is computed, not served from the per-write cache), ${cold.afterWriteMs.length} times: median ${median.toFixed(2)} ms, max ${sorted[sorted.length - 1].toFixed(2)} ms (one request at a time, from the client, HTTP included); GET /people after the same kind of write: median ${base[Math.floor(base.length / 2)].toFixed(2)} ms, max ${base[base.length - 1].toFixed(2)} ms.`,
      );
      for (const q of CONTEXT_QUERIES) {
        const path = contextPath(ctx.slug, q);
        const d = await fetchJson(daemon.url + path, { headers: { 'x-api-key': ctx.apiKey } });
        if (d.status !== 200)
          throw new Error(`GET ${path} answered ${d.status}: ${d.text.slice(0, 300)}`);
        const qs = path.slice(path.indexOf('?') + 1);
        await floor.ask({ type: 'body', name: `context:get?${qs}`, body: d.body });
        const f = await fetchJson(floor.url + path, { headers: { 'x-api-key': ctx.apiKey } });
        sizes.set(path, { daemon: Buffer.byteLength(d.text), floor: Buffer.byteLength(f.text) });
      }
      contextNotes.push(
        `Queries (rotated per request in the closed loop; the open loop asks the first): ${CONTEXT_QUERIES.map((q) => `"${q}"`).join(', ')}. Reply bodies ${Math.min(...CONTEXT_QUERIES.map((q) => sizes.get(contextPath(ctx.slug, q))!.daemon))}–${Math.max(...CONTEXT_QUERIES.map((q) => sizes.get(contextPath(ctx.slug, q))!.daemon))} B, the floor's byte for byte the same.`,
      );
    }

    // 4. The cases, A B A B each.
    let turn = 0;
    let ask = 0;
    const defs: CaseDef[] = [
      {
        key: 'list',
        name: 'GET entries (no query, limit 20)',
        target: READ_TARGET,
        spec: { path: entriesPath(main.slug, listQs), headers: keyHeader },
      },
      {
        key: 'paced',
        name: `GET entries (no query, limit 20) at a fixed ${PACED_RATE.toLocaleString('en-US')} req/s (open loop)`,
        target: { maxP99: 5 },
        pacedRate: PACED_RATE,
        spec: { path: entriesPath(main.slug, listQs), headers: keyHeader },
      },
      {
        key: 'query',
        name: `GET entries (query "${QUERY}", limit 20)`,
        target: READ_TARGET,
        spec: { path: entriesPath(main.slug, queryQs), headers: keyHeader },
      },
      ...CALENDAR_WINDOWS.map((w) => ({
        key: 'calendar',
        name: w.name,
        target: { minRatio: 0.5 },
        spec: {
          path: `/api/v1/families/${cal.slug}/calendar/events?${w.query}`,
          headers: { 'x-api-key': cal.apiKey },
        },
      })),
      {
        key: 'context',
        block: 'context',
        name: `GET context (${CONTEXT_QUERIES.length} queries in turn, ${CONTEXT_ENTRIES / 1000}k entries, ${CONTEXT_EVENTS} events)`,
        target: { minRatio: 0.5 },
        spec: {
          path: contextPath(ctx.slug, CONTEXT_QUERIES[0]),
          headers: { 'x-api-key': ctx.apiKey },
          setupRequest: (req) => {
            req.path = contextPath(ctx.slug, CONTEXT_QUERIES[ask++ % CONTEXT_QUERIES.length]);
            return req;
          },
        },
      },
      {
        key: 'context',
        block: 'context',
        name: `GET context ("${CONTEXT_QUERIES[0]}") at a fixed ${PACED_RATE.toLocaleString('en-US')} req/s (open loop)`,
        target: { maxP99: 5 },
        pacedRate: PACED_RATE,
        spec: {
          path: contextPath(ctx.slug, CONTEXT_QUERIES[0]),
          headers: { 'x-api-key': ctx.apiKey },
        },
      },
      {
        key: 'post',
        name: 'POST entry, one family (durable)',
        target: { minRps: 5_000, minRatio: 0.7 },
        spec: { method: 'POST', path: entriesPath(main.slug), headers: keyHeader, body: postBody },
      },
      {
        key: 'spread',
        name: `POST entry, ${SPREAD_FAMILIES} families round-robin (durable)`,
        target: { minRps: 20_000, minRatio: 0.7 },
        spec: {
          method: 'POST',
          path: entriesPath(spread[0].slug),
          body: postBody,
          setupRequest: (req) => {
            const f: BenchFamily = spread[turn++ % spread.length];
            req.path = entriesPath(f.slug);
            req.headers['x-api-key'] = f.apiKey;
            return req;
          },
        },
      },
    ];
    // Reads measured while writes flow into the same family: a read waits while a batch of
    // writes is being flushed (it never sees what is not on disk), so this is the cost of that.
    defs.push({
      key: 'mixed',
      name: 'GET entries (limit 20) while 16 connections POST into the same family',
      target: { minRatio: 0.7 },
      spec: { path: entriesPath(main.slug, listQs), headers: keyHeader },
      background: {
        connections: 16,
        spec: { method: 'POST', path: entriesPath(main.slug), headers: keyHeader, body: postBody },
      },
    });
    const cases: CaseResult[] = [];
    const contextCases: CaseResult[] = [];
    for (const def of defs) {
      if (!CASES.has(def.key)) continue;
      if (def.key === 'calendar' && calendarSkipped) {
        cases.push({ name: def.name, target: def.target, skipped: calendarSkipped });
        continue;
      }
      const result = await runCase(def, daemon, floor);
      const size = sizes.get(def.spec.path);
      if (size) result.bodyBytes = size;
      (def.block === 'context' ? contextCases : cases).push(result);
    }
    const stats = await daemon.stats();
    notes.push(
      `Daemon after the run: RSS ${(daemon.vmRss() / 2 ** 20).toFixed(0)} MiB, ${stats.active} active families.`,
    );
    if (!cases.length) contextNotes.push(notes.pop()!);
    await daemon.close();
    await floor.close();
    let profile: string | undefined;
    if (profileDir) {
      const parts: string[] = [];
      for (const who of ['daemon', 'floor']) {
        const dir = join(profileDir, who);
        const file = existsSync(dir)
          ? readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
          : undefined;
        if (file) parts.push(`-- ${who} --\n${summarizeProfile(join(dir, file))}`);
      }
      profile = parts.join('\n\n');
    }
    return { cases, notes, contextCases, contextNotes, ...(profile ? { profile } : {}) };
  } finally {
    await daemon?.close();
    await floor?.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (profileDir && existsSync(profileDir)) log(`CPU profile kept in ${profileDir}`);
  }
}

// ---- main ------------------------------------------------------------------------------------

const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const started = Date.now();
log(`Household Organizer benchmark, ${date}`);

if (!MEMORY_ONLY && !FEEDS_ONLY && THROUGHPUT_CASES.some((c) => CASES.has(c))) {
  const { cases, notes, contextCases, contextNotes, profile } = await throughput();
  log(`\n${consoleTable([...cases, ...contextCases])}\n`);
  for (const n of [...notes, ...contextNotes]) log(`  ${n}`);
  if (profile) log(`\n${profile}\n`);
  if (WRITE_DOC) {
    if (cases.length)
      updateDoc(
        DOC,
        THROUGHPUT_MARKERS,
        throughputMarkdown(cases, {
          command,
          connections: CONNECTIONS,
          seconds: SECONDS,
          date,
          notes,
        }),
      );
    if (contextCases.length)
      updateDoc(
        DOC,
        CONTEXT_MARKERS,
        throughputMarkdown(contextCases, {
          command,
          connections: CONNECTIONS,
          seconds: SECONDS,
          date,
          notes: contextNotes,
        }),
      );
    log(`\nwrote ${DOC}`);
  }
}

if (!MEMORY_ONLY && !FEEDS_ONLY && CASES.has('webhooks')) {
  const result = await runWebhooksCase({
    daemonScript: DAEMON,
    seconds: SECONDS,
    connections: CONNECTIONS,
    rate: PACED_WRITES,
    log,
  });
  const block = webhooksMarkdown(result, { command, date, machine: machine() });
  log(`\n${block}\n`);
  if (WRITE_DOC) {
    updateDoc(DOC, WEBHOOKS_MARKERS, block);
    log(`wrote ${DOC}`);
  }
}

if (!MEMORY_ONLY && !FEEDS_ONLY && CASES.has('stream')) {
  const result = await runStreamCase({
    daemonScript: DAEMON,
    seconds: SECONDS,
    rate: PACED_WRITES,
    log,
  });
  const block = streamMarkdown(result, { command, date, machine: machine() });
  log(`\n${block}\n`);
  if (WRITE_DOC) {
    updateDoc(DOC, STREAM_MARKERS, block);
    log(`wrote ${DOC}`);
  }
}

if (!MEMORY_ONLY && !FEEDS_ONLY && CASES.has('caldav')) {
  const result = await runCaldavCase({
    daemonScript: DAEMON,
    seconds: SECONDS,
    connections: CONNECTIONS,
    kinds: new Set(option('caldav-cases', 'repeat,fresh,put').split(',')),
    daemonFlags: DAEMON_FLAGS,
    log,
  });
  const block = caldavMarkdown(result, { command, date });
  log(`\n${block}\n`);
  if (WRITE_DOC) {
    updateDoc(DOC, CALDAV_MARKERS, block);
    log(`wrote ${DOC}`);
  }
}

if (MEMORY && !FEEDS_ONLY) {
  const result = await runMemoryCase({
    families: Number(option('families', '1000')),
    perFamily: Number(option('per-family', '2000')),
    idleMinutes: Number(option('idle-minutes', '0.5')),
    afterIdleSeconds: option('after-idle-seconds', '20,60').split(',').map(Number),
    daemonScript: DAEMON,
    log,
  });
  if (WRITE_DOC) {
    updateDoc(DOC, MEMORY_MARKERS, memoryMarkdown(result, { command, date }));
    log(`wrote ${DOC}`);
  }
}
if (FEEDS) {
  const profileDir = PROFILE
    ? mkdtempSync(join(tmpdir(), 'household-bench-feeds-prof-'))
    : undefined;
  const result = await runFeedsCase({
    daemonScript: DAEMON,
    log,
    seconds: SECONDS,
    connections: CONNECTIONS,
    ...(profileDir ? { profileDir } : {}),
  });
  if (profileDir) {
    for (const file of readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')))
      log(`\n${summarizeProfile(join(profileDir, file))}`);
    log(`CPU profiles kept in ${profileDir}`);
  }
  if (WRITE_DOC) {
    updateDoc(
      DOC,
      FEEDS_MARKERS,
      feedsMarkdown(result, { command, date, seconds: SECONDS, connections: CONNECTIONS }),
    );
    log(`wrote ${DOC}`);
  }
}
log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
