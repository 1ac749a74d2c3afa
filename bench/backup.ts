/**
 * What a backup costs (docs/performance.md, "Backups"): how long the store's consistent copy
 * takes and how big it is for a household-sized and a large store, and what the daemon's
 * answers do while one is written beside it — the copy a scheduled backup makes
 * (`backup.every`) and `household-organizer backup` makes, taken once by the command line in
 * its own process, as a cron job would, and once by the daemon itself (LMDB copies on a worker
 * thread, so the event loop goes on answering).
 *
 *   npm run build && node dist/bench/backup.js      # --families=200 --entries=500
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Store } from '../src/store/store.js';
import { seedDirect } from './seed.js';
import { Child } from './child.js';

const arg = (name: string, d: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? d);
const FAMILIES = arg('families', 200);
const ENTRIES = arg('entries', 500);
const BIN = resolve(fileURLToPath(import.meta.url), '../../../bin/household-organizer');

const run = promisify(execFile);
const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** The store's own copy, timed in this process (what the daemon's scheduler awaits). */
async function timeCopies(dataDir: string, out: string): Promise<number[]> {
  const store = Store.open(dataDir);
  try {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = process.hrtime.bigint();
      await store.backup(join(out, `copy-${i}`));
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return times;
  } finally {
    await store.close();
  }
}

/** Sequential GETs of one family's entries for `ms`, or until `until` settles: latencies. */
async function reads(url: string, key: string, until: Promise<unknown>, ms: number) {
  let done = false;
  void until.finally(() => (done = true));
  const stop = Date.now() + ms;
  const out: number[] = [];
  while (!done && Date.now() < stop) {
    const t = process.hrtime.bigint();
    const r = await fetch(url, { headers: { 'x-api-key': key } });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`GET answered ${r.status}`);
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return out;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'household-bench-backup-'));
  const dataDir = join(dir, 'data');
  try {
    console.log(`seeding ${FAMILIES} families × ${ENTRIES} chores…`);
    const families = await seedDirect(dataDir, FAMILIES, ENTRIES, (s) => console.log(s));
    const size = statSync(join(dataDir, 'household.mdb')).size;
    const copies = await timeCopies(dataDir, join(dir, 'copies'));
    const copied = statSync(join(dir, 'copies', 'copy-0', 'household.mdb')).size;
    console.log(
      `store file ${mib(size)}, copy ${mib(copied)}; copy took ${copies.map((t) => `${t.toFixed(0)} ms`).join(', ')}`,
    );

    const daemon = await Child.start(new URL('./daemon.js', import.meta.url).pathname, {
      env: {
        BENCH_DAEMON_OVERRIDES: JSON.stringify({
          storage: { dataDir },
          server: { host: '127.0.0.1', port: 0 },
          log: { level: 'warn' },
          families: { bootstrapSlug: null },
          rateLimit: { perMinute: 1_000_000, publicPerMinute: 1_000_000 },
        }),
      },
    });
    try {
      const f = families[0];
      const url = `${daemon.url}/api/v1/families/${f.slug}/trackers/chores/entries?limit=20`;
      await reads(url, f.apiKey, new Promise(() => undefined), 1_000); // warm
      const idle = await reads(url, f.apiKey, new Promise(() => undefined), 3_000);
      const started = Date.now();
      const cli = run(process.execPath, [BIN, 'backup', join(dir, 'cli'), '--data-dir', dataDir]);
      const during = await reads(url, f.apiKey, cli, 60_000);
      await cli;
      const cliMs = Date.now() - started;
      // The daemon writing the copy itself, as backup.every has it do.
      const own = daemon.ask<{ ms: number }>({ type: 'backup', dir: join(dir, 'own') }, 600_000);
      const inDaemon = await reads(url, f.apiKey, own, 60_000);
      const ownMs = (await own).ms;
      const row = (name: string, xs: number[]) =>
        `| ${name} | ${xs.length} | ${pct(xs, 50).toFixed(1)} ms | ${pct(xs, 99).toFixed(1)} ms | ${Math.max(...xs).toFixed(1)} ms |`;
      console.log(`\`backup\` on the command line, process start to exit: ${cliMs} ms`);
      console.log('| reads of 20 entries | n | p50 | p99 | max |');
      console.log('|---|---:|---:|---:|---:|');
      console.log(row('idle', idle));
      console.log(row('while `backup` copies the store', during));
      console.log(row('while the daemon copies it (backup.every)', inDaemon));
      console.log(`the daemon's own copy took ${ownMs.toFixed(0)} ms`);
    } finally {
      await daemon.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
