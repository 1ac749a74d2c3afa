/**
 * The webhooks case (`npm run bench -- --cases=webhooks`, also part of the default run):
 * 50 families write entries while 3 destinations per family receive every
 * `tracker.entry.created` on a receiver in the runner process (127.0.0.1).
 *
 * 1. A fresh LMDB folder with 50 families; the daemon in its own process with
 *    `egress.webhooks: any` (the receiver is on loopback).
 * 2. Write throughput, closed loop (autocannon, 64 connections, the next family per request):
 *    rounds A B A B — A without destinations (none, then all disabled), B with 150 enabled
 *    ones. After each B round the deliveries it caused are waited for (drained).
 * 3. Delivery lag at a fixed 1,000 writes/s (open loop) with the destinations: from the
 *    change's `createdAt` (when the daemon decided it; its commit follows within a
 *    millisecond or two) to the receiver reading the request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Child, daemonEnv, daemonNodeFlags } from './child.js';
import { sampleProcess, usageBetween, type ProcSample } from './threads.js';
import { openLoop } from './paced.js';
import { runRound, type Round } from './load.js';
import { chore, createFamilies, type BenchFamily } from './seed.js';

export interface WebhooksResult {
  families: number;
  destinationsPerFamily: number;
  seconds: number;
  connections: number;
  without: number[];
  with: number[];
  /** Lag of the deliveries caused by the closed-loop rounds (the daemon saturated). */
  saturatedLag: { p50: number; p99: number; count: number; drainSeconds: number[] };
  paced: {
    rate: number;
    seconds: number;
    writes: number;
    writeP50: number;
    writeP99: number;
    deliveries: number;
    expected: number;
    lagP50: number;
    lagP99: number;
    lagMax: number;
    non2xx: number;
    /** Deliveries that arrived again with the same webhook-id at the same destination. */
    duplicates: number;
  };
  serverCoresPaced: number;
  /**
   * The paced phase's CPU by thread, in cores: the main thread (where writes are decided), and
   * the others by name (the delivery thread, libuv's pool, V8's collector, LMDB's writer).
   */
  pacedThreads: { main: number; others: { name: string; cores: number }[] };
  /** Daemon CPU per acknowledged write, µs: without destinations, and with (its 3 deliveries included, drain included). */
  cpuPerWriteWithout: number[];
  cpuPerWriteWith: number[];
  /** The same, the daemon's main thread only (where writes are decided). */
  mainPerWriteWithout: number[];
  mainPerWriteWith: number[];
  /**
   * The runner's own CPU in the paced phase (its fetch client and the receiver share one thread):
   * near 1 it, not the daemon, sets the pace.
   */
  runnerCoresPaced: number;
}

/**
 * The receiver. Each destination has its own path, so that a delivery is known by (path,
 * webhook-id): a repeat (at least once) is counted as a duplicate, not as another delivery, and
 * a delivery of an event decided before the phase began (a write of the previous round that was
 * still in flight when its load stopped) is counted apart instead of inflating the phase's count.
 */
class Receiver {
  lags: number[] = [];
  count = 0;
  duplicates = 0;
  earlier = 0;
  private since = 0;
  private seen = new Set<string>();
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const now = Date.now();
        const key = `${req.url} ${String(req.headers['webhook-id'])}`;
        if (this.seen.has(key)) this.duplicates++;
        else {
          this.seen.add(key);
          try {
            const p = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { createdAt: string };
            const created = Date.parse(p.createdAt);
            if (created < this.since) this.earlier++;
            else {
              this.lags.push(now - created);
              this.count++;
            }
          } catch {
            this.count++;
          }
        }
        res.writeHead(204);
        res.end();
      });
    });
    this.server.keepAliveTimeout = 5_000;
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Starts a phase: counts from zero, and only events decided from now on. */
  reset(): void {
    this.lags = [];
    this.count = 0;
    this.duplicates = 0;
    this.earlier = 0;
    this.since = Date.now();
    this.seen.clear();
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

function pct(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const entriesPath = (slug: string) => `/api/v1/families/${slug}/trackers/chores/entries`;

async function call(
  base: string,
  f: BenchFamily,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: {
      'x-api-key': f.apiKey,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function drain(receiver: Receiver, expected: number, timeoutMs: number): Promise<number> {
  const t0 = performance.now();
  while (receiver.count < expected && performance.now() - t0 < timeoutMs) await sleep(50);
  if (receiver.count < expected)
    throw new Error(
      `only ${receiver.count} of ${expected} deliveries arrived within ${timeoutMs / 1000} s`,
    );
  return (performance.now() - t0) / 1000;
}

/** Open loop: `rate` writes a second spread over the families, each timed from when it was due. */
async function paced(
  base: string,
  families: BenchFamily[],
  rate: number,
  seconds: number,
): Promise<{ latencies: number[]; non2xx: number; sent: number }> {
  const body = JSON.stringify(chore(1));
  const latencies: number[] = [];
  let non2xx = 0;
  const sent = await openLoop(rate, seconds, (i, dueAt) => {
    const f = families[i % families.length];
    return fetch(base + entriesPath(f.slug), {
      method: 'POST',
      headers: { 'x-api-key': f.apiKey, 'content-type': 'application/json' },
      body,
    }).then(
      async (res) => {
        await res.arrayBuffer();
        if (res.status === 201) latencies.push(performance.now() - dueAt);
        else non2xx++;
      },
      () => {
        non2xx++;
      },
    );
  });
  return { latencies, non2xx, sent };
}

export async function runWebhooksCase(opts: {
  daemonScript: string;
  seconds: number;
  connections: number;
  rate: number;
  log: (s: string) => void;
}): Promise<WebhooksResult> {
  const { log } = opts;
  const FAMILIES = 50;
  const PER_FAMILY = 3;
  const dataDir = mkdtempSync(join(tmpdir(), 'household-bench-wh-'));
  const receiver = new Receiver();
  let daemon: Child | undefined;
  try {
    log('\n== webhooks: 50 families writing, 3 destinations each');
    const families = await createFamilies(
      dataDir,
      Array.from({ length: FAMILIES }, (_, i) => `wh-${String(i).padStart(2, '0')}`),
    );
    await receiver.start();
    // `--daemon-node-flags=--cpu-prof,--cpu-prof-dir=/tmp/x` profiles the daemon of this case too.
    const flags = daemonNodeFlags();
    daemon = await Child.start(opts.daemonScript, {
      execArgv: flags,
      // The other cases' configuration, with loopback allowed for the receiver.
      env: daemonEnv(dataDir, { egress: { webhooks: 'any' } }),
    });
    const base = daemon.url;
    const body = JSON.stringify(chore(1));
    let turn = 0;
    const spec = {
      method: 'POST' as const,
      path: entriesPath(families[0].slug),
      body,
      setupRequest: (req: any) => {
        const f = families[turn++ % families.length];
        req.path = entriesPath(f.slug);
        req.headers['x-api-key'] = f.apiKey;
        return req;
      },
    };
    const round = (seconds: number): Promise<Round> =>
      runRound(base, spec, {
        connections: opts.connections,
        seconds,
        serverCpu: () => daemon!.cpuSeconds(),
      });
    const setEnabled = async (enabled: boolean) => {
      await Promise.all(
        families.map(async (f) => {
          const list = (
            await call(base, f, 'GET', `/api/v1/families/${f.slug}/webhook-destinations`)
          ).body.destinations as { id: string }[];
          for (const d of list)
            await call(
              base,
              f,
              'PATCH',
              `/api/v1/families/${f.slug}/webhook-destinations/${d.id}`,
              { enabled },
            );
        }),
      );
    };

    // Warm-up without destinations.
    await round(1);
    const without: number[] = [];
    const withD: number[] = [];
    const satLags: number[] = [];
    const drainSeconds: number[] = [];
    const cpuWithout: number[] = [];
    const cpuWith: number[] = [];
    const mainWithout: number[] = [];
    const mainWith: number[] = [];
    const mainCpu = (a: ProcSample) => {
      const u = usageBetween(a, sampleProcess(daemon!.pid)).main;
      return u.user + u.system;
    };
    let created = false;
    for (let i = 1; i <= 2; i++) {
      await sleep(300);
      const threadsA = sampleProcess(daemon.pid);
      const a = await round(opts.seconds);
      mainWithout.push((1e6 * mainCpu(threadsA)) / a.ok);
      without.push(a.ok / a.seconds);
      cpuWithout.push((1e6 * a.serverCpu!) / a.ok);
      log(
        `   without destinations round ${i}: ${Math.round(a.ok / a.seconds).toLocaleString('en-US')} writes/s, daemon CPU ${cpuWithout.at(-1)!.toFixed(0)} µs per write (main thread ${mainWithout.at(-1)!.toFixed(0)})`,
      );
      if (!created) {
        for (const f of families) {
          for (let k = 0; k < PER_FAMILY; k++) {
            const r = await call(
              base,
              f,
              'POST',
              `/api/v1/families/${f.slug}/webhook-destinations`,
              {
                name: `receiver ${k}`,
                url: `${receiver.url}/${f.slug}/${k}`,
                eventTypes: ['tracker.entry.created'],
              },
            );
            if (r.status !== 201)
              throw new Error(
                `creating a destination answered ${r.status}: ${JSON.stringify(r.body)}`,
              );
          }
        }
        created = true;
      } else {
        await setEnabled(true);
      }
      receiver.reset();
      await sleep(300);
      const cpuB = daemon.cpuSeconds();
      const threadsB = sampleProcess(daemon.pid);
      const b = await round(opts.seconds);
      withD.push(b.ok / b.seconds);
      const drained = await drain(receiver, b.ok * PER_FAMILY, 300_000);
      cpuWith.push((1e6 * (daemon.cpuSeconds() - cpuB)) / b.ok);
      mainWith.push((1e6 * mainCpu(threadsB)) / b.ok);
      drainSeconds.push(drained);
      satLags.push(...receiver.lags);
      log(
        `   with ${FAMILIES * PER_FAMILY} destinations round ${i}: ${Math.round(b.ok / b.seconds).toLocaleString('en-US')} writes/s; ${receiver.count.toLocaleString('en-US')} deliveries, the last ${drained.toFixed(1)} s after the round ended; daemon CPU ${cpuWith.at(-1)!.toFixed(0)} µs per write with its deliveries (main thread ${mainWith.at(-1)!.toFixed(0)})`,
      );
      if (i === 1) await setEnabled(false);
    }

    // The lag at a fixed rate.
    receiver.reset();
    await sleep(500);
    const cpu0 = daemon.cpuSeconds();
    const threads0 = sampleProcess(daemon.pid);
    const runner0 = process.cpuUsage();
    const pacedSeconds = Math.max(opts.seconds * 2, 10);
    const p = await paced(base, families, opts.rate, pacedSeconds);
    const cores = (daemon.cpuSeconds() - cpu0) / pacedSeconds;
    const byThread = usageBetween(threads0, sampleProcess(daemon.pid));
    const runnerUsage = process.cpuUsage(runner0);
    const runnerCoresPaced = (runnerUsage.user + runnerUsage.system) / 1e6 / pacedSeconds;
    const pacedThreads = {
      main: (byThread.main.user + byThread.main.system) / pacedSeconds,
      others: byThread.others.map((g) => ({
        name: g.name,
        cores: (g.user + g.system) / pacedSeconds,
      })),
    };
    const expected = p.latencies.length * PER_FAMILY;
    await drain(receiver, expected, 120_000);
    const lags = receiver.lags;
    const result: WebhooksResult = {
      families: FAMILIES,
      destinationsPerFamily: PER_FAMILY,
      seconds: opts.seconds,
      connections: opts.connections,
      without,
      with: withD,
      saturatedLag: {
        p50: pct(satLags, 50),
        p99: pct(satLags, 99),
        count: satLags.length,
        drainSeconds,
      },
      paced: {
        rate: opts.rate,
        seconds: pacedSeconds,
        writes: p.latencies.length,
        writeP50: pct(p.latencies, 50),
        writeP99: pct(p.latencies, 99),
        deliveries: receiver.count,
        expected,
        lagP50: pct(lags, 50),
        lagP99: pct(lags, 99),
        lagMax: Math.max(...lags),
        non2xx: p.non2xx,
        duplicates: receiver.duplicates,
      },
      serverCoresPaced: cores,
      pacedThreads,
      cpuPerWriteWithout: cpuWithout,
      cpuPerWriteWith: cpuWith,
      mainPerWriteWithout: mainWithout,
      mainPerWriteWith: mainWith,
      runnerCoresPaced,
    };
    log(
      `   paced ${opts.rate}/s for ${pacedSeconds} s: ${p.latencies.length} writes (p50 ${result.paced.writeP50.toFixed(2)} ms, p99 ${result.paced.writeP99.toFixed(2)} ms), ${receiver.count} deliveries (${receiver.duplicates} duplicates), lag p50 ${result.paced.lagP50} ms, p99 ${result.paced.lagP99} ms, max ${result.paced.lagMax} ms; daemon ${cores.toFixed(2)} cores (${threadCores(pacedThreads)}); runner ${runnerCoresPaced.toFixed(2)} cores`,
    );
    return result;
  } finally {
    await daemon?.close();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');

/** "main 0.41, webhooks 0.30, …": the threads that spent at least 0.01 cores. */
function threadCores(t: WebhooksResult['pacedThreads']): string {
  return [
    `main thread ${t.main.toFixed(2)}`,
    ...t.others.filter((g) => g.cores >= 0.01).map((g) => `${g.name} ${g.cores.toFixed(2)}`),
  ].join(', ');
}
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export const WEBHOOKS_MARKERS = [
  '<!-- bench:webhooks:start (generated by npm run bench) -->',
  '<!-- bench:webhooks:end -->',
] as const;

export function webhooksMarkdown(
  r: WebhooksResult,
  info: { command: string; date: string; machine: string },
): string {
  const ratio = avg(r.with) / avg(r.without);
  const lagMet = r.paced.lagP99 < 1000 && r.paced.deliveries === r.paced.expected;
  return [
    `Run ${info.date} with \`${info.command}\` on ${info.machine}.`,
    `${r.families} families, ${r.destinationsPerFamily} destinations each (all subscribed to \`tracker.entry.created\`), one receiver in the runner process on 127.0.0.1 answering 204. Writes: \`POST …/trackers/chores/entries\`, the next family per request.`,
    '',
    '| measure | result | target | verdict |',
    '|---|---:|---|---|',
    `| writes/s without destinations (closed loop, ${r.connections} connections, rounds of ${r.seconds} s) | ${r.without.map(n0).join(', ')} | | |`,
    `| writes/s with ${r.families * r.destinationsPerFamily} destinations (same load) | ${r.with.map(n0).join(', ')} | ≥ 0.9 × without | ${ratio >= 0.9 ? 'met' : '**NOT MET**'}: ${ratio.toFixed(2)} |`,
    `| delivery lag at ${n0(r.paced.rate)} writes/s (open loop, ${r.paced.seconds} s; ${n0(r.paced.deliveries)} of ${n0(r.paced.expected)} deliveries, ${n0(r.paced.duplicates)} duplicates) | p50 ${n0(r.paced.lagP50)} ms, p99 ${n0(r.paced.lagP99)} ms, max ${n0(r.paced.lagMax)} ms | p99 < 1 s | ${lagMet ? 'met' : '**NOT MET**'} |`,
    `| write latency at ${n0(r.paced.rate)} writes/s with the destinations | p50 ${r.paced.writeP50.toFixed(2)} ms, p99 ${r.paced.writeP99.toFixed(2)} ms | | ${r.paced.non2xx} non-2xx |`,
    `| delivery lag of the closed-loop rounds (daemon saturated by writes) | p50 ${n0(r.saturatedLag.p50)} ms, p99 ${n0(r.saturatedLag.p99)} ms over ${n0(r.saturatedLag.count)} deliveries; drained ${r.saturatedLag.drainSeconds.map((s) => `${s.toFixed(1)} s`).join(', ')} after the rounds | | |`,
    `| daemon CPU at ${n0(r.paced.rate)} writes/s with ${n0(3 * r.paced.rate)} deliveries/s | ${r.serverCoresPaced.toFixed(2)} cores | < 0.6 | ${r.serverCoresPaced < 0.6 ? 'met' : '**NOT MET**'} |`,
    `| … by thread | ${threadCores(r.pacedThreads)} | | |`,
    `| daemon CPU per write, without → with its 3 deliveries | ${r.cpuPerWriteWithout.map(n0).join(', ')} µs → ${r.cpuPerWriteWith.map(n0).join(', ')} µs | | |`,
    `| … of it on the main thread | ${r.mainPerWriteWithout.map(n0).join(', ')} µs → ${r.mainPerWriteWith.map(n0).join(', ')} µs | | |`,
    `| the runner's CPU in the paced phase (load and receiver, one thread) | ${r.runnerCoresPaced.toFixed(2)} cores | | |`,
  ].join('\n');
}
