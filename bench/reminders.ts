/**
 * `npm run bench:reminders`: 10,000 reminders due in the same minute across 1,000 families
 * (issue: notifications, item 11). Passes when all of them fire within 60 s of their due time,
 * none twice, and the API keeps answering reads at ≥ 0.5 × its idle rate while they fire.
 *
 * 1. 1,000 families with a key each are created before the daemon starts.
 * 2. The daemon (bench/daemon.ts, its own process) gets `push.ntfyUrl` pointing at an ntfy
 *    recorder in this process, so every reminder leaves through a real transport call.
 * 3. Ten events per family are posted through the API, each with one reminder (offset 0,
 *    channels in_app + push, audience household) due at the same minute T.
 * 4. Reads (GET calendar events, a different family each request) run for 6 s before T: the
 *    idle rate. They go on from T while the reminders fire; the rate over the firing window
 *    (T → last publish) is compared with the idle one.
 * 5. Every publish is counted by its title; every family's notifications are listed after.
 *
 * Options: --families=1000 --per-family=10 --connections=32 --no-doc
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir, cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { Child } from './child.js';
import { createFamilies, type BenchFamily } from './seed.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const argv = process.argv.slice(2);
const option = (name: string, fallback: string) =>
  argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const FAMILIES = Number(option('families', '1000'));
const PER_FAMILY = Number(option('per-family', '10'));
const CONNECTIONS = Number(option('connections', '32'));
const WRITE_DOC = !argv.includes('--no-doc');
const log = (s: string) => process.stdout.write(`${s}\n`);

/** The ntfy stand-in: counts publishes by title and keeps when each arrived. */
async function startRecorder(): Promise<{
  server: Server;
  url: string;
  seen: Map<string, number[]>;
}> {
  const seen = new Map<string, number[]>();
  const server = createServer((req, res) => {
    const title = String(req.headers.title ?? '');
    req.resume();
    req.on('end', () => {
      const at = Date.now();
      const list = seen.get(title);
      if (list) list.push(at);
      else seen.set(title, [at]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"event":"message"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/household`,
    seen,
  };
}

async function post(url: string, key: string, body: unknown): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  if (res.status !== 201)
    throw new Error(`POST ${url} answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

/** Reads for `ms`, a different family each request; the times of the 2xx answers. */
function reads(
  base: string,
  families: BenchFamily[],
  ms: number,
): { done: Promise<number[]>; stop: () => void } {
  const times: number[] = [];
  let next = 0;
  const instance = autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: ms / 1000,
    pipelining: 1,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          const f = families[next++ % families.length];
          return {
            ...req,
            path: `/api/v1/families/${f.slug}/calendar/events?limit=20`,
            headers: { ...req.headers, 'x-api-key': f.apiKey },
          };
        },
      },
    ],
  });
  instance.on('response', (_client: unknown, status: number) => {
    if (status >= 200 && status < 300) times.push(Date.now());
  });
  return { done: Promise.resolve(instance).then(() => times), stop: () => instance.stop() };
}

const rate = (times: number[], from: number, to: number) =>
  times.filter((t) => t >= from && t < to).length / ((to - from) / 1000);

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'household-bench-reminders-'));
  const recorder = await startRecorder();
  let daemon: Child | null = null;
  try {
    log(`1. creating ${FAMILIES} families …`);
    const slugs = Array.from({ length: FAMILIES }, (_, i) => `rem-${String(i).padStart(4, '0')}`);
    const families = await createFamilies(dataDir, slugs);

    log('2. starting the daemon …');
    daemon = await Child.start(join(here, 'daemon.js'), {
      env: {
        BENCH_DAEMON_OVERRIDES: JSON.stringify({
          server: { host: '127.0.0.1', port: 0 },
          storage: { dataDir },
          log: { level: 'warn' },
          rateLimit: { perMinute: 100_000_000 },
          families: { bootstrapSlug: null, maxActiveActors: Math.max(1000, FAMILIES) },
          push: { ntfyUrl: recorder.url },
        }),
      },
    });
    const base = daemon.url;

    // T: a whole minute far enough ahead for seeding and the idle measurement.
    const T = Math.ceil((Date.now() + 75_000) / 60_000) * 60_000;
    const at = new Date(T).toISOString();
    log(`3. posting ${FAMILIES * PER_FAMILY} events with a reminder due at ${at} …`);
    const seedStart = Date.now();
    const work: [BenchFamily, number][] = [];
    for (const f of families) for (let j = 0; j < PER_FAMILY; j++) work.push([f, j]);
    const worker = async () => {
      for (let w = work.shift(); w; w = work.shift()) {
        const [f, j] = w;
        await post(`${base}/api/v1/families/${f.slug}/calendar/events`, f.apiKey, {
          title: `${f.slug} #${j}`,
          date: at.slice(0, 10),
          time: at.slice(11, 16),
          responsibilityRequired: false,
          reminders: [{ offsetMinutes: 0, channels: ['in_app', 'push'] }],
        });
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    log(`   seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
    if (Date.now() > T - 10_000)
      throw new Error('seeding took too long: T is too close; run again');

    log('4. idle reads, then reads while the reminders fire …');
    await sleep(T - 8_000 - Date.now());
    const idleFrom = Date.now();
    const idle = await reads(base, families, 6_000).done;
    const idleRate = rate(idle, idleFrom + 1_000, idleFrom + 6_000);
    const cpuBefore = daemon.cpuSeconds();
    await sleep(Math.max(0, T - Date.now()));
    const during = reads(base, families, 70_000);
    const expected = FAMILIES * PER_FAMILY;
    const total = () => {
      let n = 0;
      for (const l of recorder.seen.values()) n += l.length;
      return n;
    };
    while (total() < expected && Date.now() < T + 65_000) await sleep(100);
    const last = Math.max(...Array.from(recorder.seen.values()).flat());
    during.stop();
    const busy = await during.done;
    const cpu = daemon.cpuSeconds() - cpuBefore;
    const firstPublish = Math.min(...Array.from(recorder.seen.values()).flat());
    const window = Math.max(last, T + 1_000);
    const busyRate = rate(busy, T, window);

    log("5. checking every family's notifications …");
    let listed = 0;
    let twice = 0;
    for (const f of families) {
      const res = await fetch(`${base}/api/v1/families/${f.slug}/notifications?limit=50`, {
        headers: { 'x-api-key': f.apiKey },
      });
      const body = (await res.json()) as {
        notifications: { kind: string; eventId: string; pending: number; delivered: number }[];
      };
      const reminders = body.notifications.filter((n) => n.kind === 'reminder');
      listed += reminders.filter((n) => n.pending === 0 && n.delivered === 2).length;
      twice += reminders.length - new Set(reminders.map((n) => n.eventId)).size;
    }
    const publishedTwice = Array.from(recorder.seen.values()).filter((l) => l.length > 1).length;
    const result = {
      expected,
      published: total(),
      distinct: recorder.seen.size,
      publishedTwice,
      listed,
      listedTwice: twice,
      firstAfterDueMs: firstPublish - T,
      lastAfterDueMs: last - T,
      idleRate,
      busyRate,
      ratio: busyRate / idleRate,
      cpuSeconds: cpu,
    };
    const pass =
      result.published === expected &&
      result.distinct === expected &&
      publishedTwice === 0 &&
      twice === 0 &&
      listed === expected &&
      result.lastAfterDueMs <= 60_000 &&
      result.ratio >= 0.5;
    log(JSON.stringify(result, null, 1));
    log(pass ? 'PASS' : 'NOT MET');
    if (WRITE_DOC) writeDoc(result, pass);
  } finally {
    await daemon?.close();
    recorder.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const START = '<!-- bench:reminders:start (generated by npm run bench:reminders) -->';
const END = '<!-- bench:reminders:end -->';

function writeDoc(r: Record<string, number>, pass: boolean): void {
  const doc = join(root, 'docs/performance.md');
  if (!existsSync(doc)) return;
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const block = [
    START,
    `Run ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} with \`npm run bench:reminders${argv.length ? ` -- ${argv.join(' ')}` : ''}\` on ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}.`,
    '',
    '| what | measured | target | verdict |',
    '|---|---:|---|---|',
    `| reminders due in the same minute | ${n(r.expected)} across ${n(FAMILIES)} families | | |`,
    `| published to ntfy (distinct titles) | ${n(r.published)} (${n(r.distinct)}) | all, none twice | ${r.published === r.expected && r.distinct === r.expected && r.publishedTwice === 0 ? 'met' : '**NOT MET**'} |`,
    `| listed as delivered by their families (twice) | ${n(r.listed)} (${n(r.listedTwice)}) | all, none twice | ${r.listed === r.expected && r.listedTwice === 0 ? 'met' : '**NOT MET**'} |`,
    `| first / last publish after the due time | ${(r.firstAfterDueMs / 1000).toFixed(1)} s / ${(r.lastAfterDueMs / 1000).toFixed(1)} s | last ≤ 60 s | ${r.lastAfterDueMs <= 60_000 ? 'met' : '**NOT MET**'} |`,
    `| reads (GET calendar events, ${CONNECTIONS} connections) idle / while firing | ${n(r.idleRate)} / ${n(r.busyRate)} req/s (ratio ${r.ratio.toFixed(2)}) | ≥ 0.5 × idle | ${r.ratio >= 0.5 ? 'met' : '**NOT MET**'} |`,
    `| daemon CPU while firing | ${r.cpuSeconds.toFixed(1)} s | | |`,
    '',
    `Overall: ${pass ? 'met' : '**NOT MET**'}.`,
    END,
  ].join('\n');
  let text = readFileSync(doc, 'utf8');
  if (text.includes(START))
    text = text.slice(0, text.indexOf(START)) + block + text.slice(text.indexOf(END) + END.length);
  else text += `\n## Reminders firing together\n\n${block}\n`;
  writeFileSync(doc, text);
}

await main();
