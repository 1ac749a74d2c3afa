/**
 * The memory case (`npm run bench -- --memory`): resident memory of the daemon with 1,000
 * families × 2,000 entries active, and after idle eviction.
 *
 * 1. Seed the families and entries through the store's API on a fresh folder.
 * 2. Start the daemon with a short `families.actorIdleMinutes`.
 * 3. Touch every family with a GET of its entries until all are active at once (activating
 *    the first ones may take longer than the idle limit, so quick further passes re-touch any
 *    that were dropped), then read the memory.
 * 4. Stop touching; once the registry reports no active actor, read it at once, after a
 *    further idle wait, and after a little traffic on one family. Nothing forces a GC: V8
 *    frees the evicted families' heap only when it next runs a full collection.
 * 5. Last, for reference only, a forced full GC (this child alone runs with --expose-gc) shows
 *    how much of that memory eviction had made free.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Child } from './child.js';
import { runRound } from './load.js';
import { seedDirect, type BenchFamily } from './seed.js';
import type { MemoryResult } from './report.js';
import { STORE_FILE } from '../src/store/store.js';

export interface MemoryOptions {
  families: number;
  perFamily: number;
  idleMinutes: number;
  /** Moments (seconds after every actor was evicted) to read the memory again, still idle. */
  afterIdleSeconds: number[];
  daemonScript: string;
  log: (s: string) => void;
}

function entriesPath(f: BenchFamily): string {
  return `/api/v1/families/${f.slug}/trackers/chores/entries?limit=20`;
}

async function touchAll(url: string, families: BenchFamily[], concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < families.length; i = next++) {
      const f = families[i];
      const res = await fetch(url + entriesPath(f), { headers: { 'x-api-key': f.apiKey } });
      if (res.status !== 200)
        throw new Error(`GET entries of ${f.slug} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export async function runMemoryCase(o: MemoryOptions): Promise<MemoryResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'household-bench-mem-'));
  let daemon: Child | undefined;
  try {
    // 1. Seed.
    o.log(`memory: seeding ${o.families} families × ${o.perFamily} entries in ${dataDir}`);
    const t0 = Date.now();
    const families = await seedDirect(dataDir, o.families, o.perFamily, o.log);
    const seedSeconds = (Date.now() - t0) / 1000;
    const storeBytes = statSync(join(dataDir, STORE_FILE)).size;

    // 2. The daemon, with a short idle limit.
    daemon = await Child.start(o.daemonScript, {
      execArgv: ['--expose-gc'],
      env: {
        BENCH_DAEMON_OVERRIDES: JSON.stringify({
          server: { host: '127.0.0.1', port: 0, publicUrl: 'http://127.0.0.1' },
          storage: { dataDir },
          log: { level: 'warn' },
          rateLimit: { perMinute: 100_000_000 },
          families: {
            bootstrapSlug: null,
            actorIdleMinutes: o.idleMinutes,
            maxActiveActors: Math.max(5_000, o.families),
          },
        }),
      },
    });
    const d = daemon;
    const started = Date.now();
    const points: MemoryResult['points'] = [];
    const point = async (label: string) => {
      const s = await d.stats();
      const mem = d.memory();
      const p = {
        label,
        active: s.active ?? NaN,
        vmRss: mem.rss,
        anon: mem.anon,
        file: mem.file,
        heapUsed: s.heapUsed,
        atSeconds: (Date.now() - started) / 1000,
      };
      points.push(p);
      const m = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
      o.log(
        `memory: ${label}: ${p.active} active, RSS ${m(p.vmRss)} (anonymous ${m(p.anon)}, file-backed ${m(p.file)}), heap used ${m(p.heapUsed)}`,
      );
    };
    await point('daemon started, no family active');

    // 3. Every family active at once.
    const t1 = Date.now();
    await touchAll(d.url, families, 8);
    const activateSeconds = (Date.now() - t1) / 1000;
    o.log(
      `memory: first pass over ${families.length} families took ${activateSeconds.toFixed(1)} s`,
    );
    for (let pass = 0; pass < 5 && (await d.stats()).active! < families.length; pass++)
      await touchAll(d.url, families, 8);
    await point(`all ${families.length} families active`);

    // 4. Idle eviction (the registry checks every idleMs / 2, at least every second).
    const deadline = Date.now() + (o.idleMinutes * 60 + 120) * 1000;
    while ((await d.stats()).active! > 0 && Date.now() < deadline) await sleep(1_000);
    await point('every actor evicted');
    const evictedAt = Date.now();
    for (const s of o.afterIdleSeconds) {
      await sleep(Math.max(0, evictedAt + s * 1000 - Date.now()));
      await point(`${s} s later, still idle`);
    }
    const one = families[0];
    await runRound(
      d.url,
      { path: entriesPath(one), headers: { 'x-api-key': one.apiKey } },
      { connections: 4, seconds: 5 },
    );
    await point('after 5 s of GETs on one family');

    // 5. Reference only: what a full collection frees.
    await d.ask({ type: 'gc' }, 60_000);
    await point('after a forced full GC (reference only)');
    return {
      families: o.families,
      entriesPerFamily: o.perFamily,
      seedSeconds,
      activateSeconds,
      idleMinutes: o.idleMinutes,
      points,
      storeBytes,
    };
  } finally {
    await daemon?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
