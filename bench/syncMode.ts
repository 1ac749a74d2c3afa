/**
 * lmdb-js's overlappingSync on or off (docs/storage.md: the store runs with it off so that a
 * failed commit leaves nothing pending): 50 writers, each waiting for its commit and flush
 * before writing again, like the family actors do; rounds alternate the two modes because the
 * machine's load varies more than the modes differ. `npm run build && node dist/bench/syncMode.js`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';

const ROUND_MS = 2500;
const WRITERS = 50;

async function round(overlappingSync: boolean): Promise<string> {
  const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'household-sync-'));
  const db = open({ path: join(dir, 'x.mdb'), mapSize: 2 ** 30, overlappingSync });
  const latencies: number[] = [];
  const t0 = performance.now();
  let n = 0;
  async function writer(w: number): Promise<void> {
    while (performance.now() - t0 < ROUND_MS) {
      const s = performance.now();
      await db.transaction(() => {
        n++;
        void db.put(['rec', w, n], { v: 'x'.repeat(300), n });
        void db.put(['log', w, n], { seq: n });
      });
      await db.flushed;
      latencies.push(performance.now() - s);
    }
  }
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  await db.close();
  rmSync(dir, { recursive: true });
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.floor(latencies.length * q)]!.toFixed(2);
  const perSecond = (latencies.length / (ROUND_MS / 1000)).toFixed(0);
  return `overlappingSync ${overlappingSync ? 'on ' : 'off'}: ${perSecond} writes/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`;
}

for (let i = 0; i < 4; i++) {
  for (const mode of [true, false]) console.log(await round(mode));
}
